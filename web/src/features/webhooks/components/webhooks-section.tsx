import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryStatus,
  type WebhookEndpointDto,
  type WebhookEventType,
  webhookEndpointCreateSchema,
} from '@carteiro/shared';
import { useState } from 'react';
import { ErrorPanel, formatDateTime, LoadingPanel, Select, TableShell, td, th } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { confirmAction, toast } from '@/stores/app-store';
import {
  revealWebhookSecret,
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useRedeliverWebhook,
  useRotateWebhookSecret,
  useSendTestWebhook,
  useUpdateWebhookEndpoint,
  useWebhookDeliveries,
  useWebhookEndpoints,
  type WebhookSecret,
} from '../api';
import { attemptsLabel, eventLabel, useWebhookTexts } from '../texts';

/** Outbound webhooks on the API page: endpoints, their secret, a test event and the delivery log. */
export function WebhooksSection() {
  const x = useWebhookTexts();
  const endpoints = useWebhookEndpoints();
  const [adding, setAdding] = useState(false);
  return (
    <section className="mt-10 space-y-4" aria-labelledby="webhooks-title">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="webhooks-title" className="text-xl font-bold text-slate-900">
            {x.title}
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">{x.intro}</p>
        </div>
        {!adding ? <Button onClick={() => setAdding(true)}>{x.add}</Button> : null}
      </div>
      {adding ? <EndpointForm onDone={() => setAdding(false)} /> : null}
      {endpoints.isPending ? (
        <LoadingPanel />
      ) : endpoints.isError ? (
        <ErrorPanel error={endpoints.error} onRetry={() => endpoints.refetch()} />
      ) : endpoints.data.length === 0 ? (
        <div className="space-y-1 text-sm text-slate-500">
          <p>{x.empty}</p>
          <p className="max-w-2xl">{x.emptyHint}</p>
        </div>
      ) : (
        endpoints.data.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} />)
      )}
    </section>
  );
}

function EndpointForm({ endpoint, onDone }: { endpoint?: WebhookEndpointDto; onDone: () => void }) {
  const x = useWebhookTexts();
  const create = useCreateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [types, setTypes] = useState<WebhookEventType[]>(endpoint?.eventTypes ?? ['message.delivered']);
  const [error, setError] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;
  return (
    <Card className="p-5">
      <form
        noValidate
        className="space-y-4"
        onSubmit={async (event) => {
          event.preventDefault();
          const parsed = webhookEndpointCreateSchema.safeParse({ url, description, eventTypes: types });
          if (!parsed.success) {
            setError(parsed.error.issues[0]?.message ?? x.pickEvent);
            return;
          }
          setError(null);
          try {
            if (endpoint) await update.mutateAsync({ id: endpoint.id, input: parsed.data });
            else await create.mutateAsync(parsed.data);
            toast({ title: x.saved, variant: 'success' });
            onDone();
          } catch (err) {
            setError(errorText(err));
          }
        }}
      >
        <div className="space-y-1.5">
          <Label htmlFor="webhook-url">{x.url}</Label>
          <Input
            id="webhook-url"
            type="url"
            placeholder="https://meusistema.com.br/webhooks/carteiro"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="webhook-description">{x.description}</Label>
          <Input id="webhook-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <fieldset>
          <legend className="text-sm font-semibold text-slate-800">{x.events}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={types.includes(type)}
                  onChange={(e) =>
                    setTypes((current) => (e.target.checked ? [...current, type] : current.filter((t) => t !== type)))
                  }
                />
                <span>{eventLabel(x, type)}</span>
                <code className="text-xs text-slate-400">{type}</code>
              </label>
            ))}
          </div>
        </fieldset>
        {error ? <FieldError>{error}</FieldError> : null}
        <div className="flex gap-2">
          <Button type="submit" disabled={pending}>
            {x.save}
          </Button>
          <Button type="button" variant="outline" onClick={onDone}>
            {x.cancel}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpointDto }) {
  const x = useWebhookTexts();
  const update = useUpdateWebhookEndpoint();
  const remove = useDeleteWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const test = useSendTestWebhook();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<WebhookSecret | null>(null);
  const [showLog, setShowLog] = useState(false);
  const run = async (action: () => Promise<unknown>, success?: string) => {
    try {
      await action();
      if (success) toast({ title: success });
    } catch (err) {
      toast({ title: errorText(err), variant: 'error' });
    }
  };
  if (editing) return <EndpointForm endpoint={endpoint} onDone={() => setEditing(false)} />;
  return (
    <Card className="space-y-4 p-5" data-testid="webhook-endpoint">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm font-semibold text-slate-900">{endpoint.url}</p>
          {endpoint.description ? <p className="text-sm text-slate-500">{endpoint.description}</p> : null}
          <div className="mt-2 flex flex-wrap gap-1">
            {endpoint.eventTypes.map((type) => (
              <Badge key={type} tone="neutral">
                {type}
              </Badge>
            ))}
          </div>
          {endpoint.disabledReason ? <p className="mt-2 text-sm text-red-700">{endpoint.disabledReason}</p> : null}
        </div>
        <Badge tone={endpoint.enabled ? 'success' : 'warning'}>{endpoint.enabled ? x.enabled : x.disabled}</Badge>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          onClick={() => run(() => test.mutateAsync(endpoint.id).then(() => setShowLog(true)), x.testSent)}
        >
          {x.sendTest}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setShowLog((v) => !v)}>
          {showLog ? x.hideLog : x.showLog}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
          {x.edit}
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => run(() => update.mutateAsync({ id: endpoint.id, input: { enabled: !endpoint.enabled } }))}
        >
          {endpoint.enabled ? x.disable : x.enable}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() =>
            confirmAction({
              title: x.remove,
              description: x.removeConfirm,
              action: () => run(() => remove.mutateAsync(endpoint.id)),
            })
          }
        >
          {x.remove}
        </Button>
      </div>
      <div className="rounded-lg bg-slate-50 p-3 text-sm">
        <p className="font-semibold text-slate-800">{x.secret}</p>
        {secret ? (
          <div className="mt-1 space-y-1">
            <code className="block break-all text-slate-900" data-testid="webhook-secret">
              {secret.secret}
            </code>
            {secret.previousSecret ? (
              <p className="text-xs text-slate-500">
                {x.previousSecret.replace('{until}', formatDateTime(secret.previousSecretExpiresAt))}:{' '}
                <code className="break-all">{secret.previousSecret}</code>
              </p>
            ) : null}
          </div>
        ) : (
          <p className="mt-1 font-mono text-slate-500">whsec_••••••••••••••••</p>
        )}
        <div className="mt-2 flex gap-2">
          <Button
            size="sm"
            variant="outline"
            onClick={() =>
              secret ? setSecret(null) : run(async () => setSecret(await revealWebhookSecret(endpoint.id)))
            }
          >
            {secret ? x.hide : x.reveal}
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() =>
              confirmAction({
                title: x.rotate,
                description: x.rotateConfirm,
                action: () => run(async () => setSecret(await rotate.mutateAsync(endpoint.id))),
              })
            }
          >
            {x.rotate}
          </Button>
        </div>
      </div>
      {showLog ? <DeliveryLog endpointId={endpoint.id} /> : null}
    </Card>
  );
}

function statusTone(status: WebhookDeliveryStatus) {
  return status === 'succeeded' ? 'success' : status === 'failed' ? 'danger' : 'warning';
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const x = useWebhookTexts();
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [eventType, setEventType] = useState('');
  const deliveries = useWebhookDeliveries(endpointId, { status, eventType });
  const redeliver = useRedeliverWebhook();
  return (
    <div className="space-y-3" data-testid="webhook-delivery-log">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="mr-auto font-semibold text-slate-900">{x.log}</h3>
        <Select
          className="w-auto"
          aria-label={x.status}
          value={status}
          onChange={(e) => setStatus(e.target.value as WebhookDeliveryStatus | '')}
        >
          <option value="">{x.allStatuses}</option>
          {WEBHOOK_DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {x[s]}
            </option>
          ))}
        </Select>
        <Select
          className="w-auto"
          aria-label={x.event}
          value={eventType}
          onChange={(e) => setEventType(e.target.value)}
        >
          <option value="">{x.allEvents}</option>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {eventLabel(x, type)}
            </option>
          ))}
        </Select>
      </div>
      {deliveries.isPending ? (
        <LoadingPanel />
      ) : deliveries.isError ? (
        <ErrorPanel error={deliveries.error} onRetry={() => deliveries.refetch()} />
      ) : deliveries.data.length === 0 ? (
        <p className="text-sm text-slate-500">{x.noDeliveries}</p>
      ) : (
        <TableShell>
          <thead>
            <tr>
              <th className={th}>{x.when}</th>
              <th className={th}>{x.event}</th>
              <th className={th}>{x.status}</th>
              <th className={th}>{x.http}</th>
              <th className={th}>{x.duration}</th>
              <th className={th}>{x.answer}</th>
              <th className={th} />
            </tr>
          </thead>
          <tbody>
            {deliveries.data.map((d) => {
              const last = d.attemptLog[0];
              return (
                <tr key={d.id}>
                  <td className={td}>{formatDateTime(last?.attemptedAt ?? d.createdAt)}</td>
                  <td className={td}>
                    <span className="block">{eventLabel(x, d.eventType)}</span>
                    <code className="text-xs text-slate-400">{d.eventId}</code>
                  </td>
                  <td className={td}>
                    <Badge tone={statusTone(d.status)}>{x[d.status]}</Badge>
                    <span className="block text-xs text-slate-500">{attemptsLabel(x, d.attempts)}</span>
                  </td>
                  <td className={`${td} tabular-nums`}>{last?.statusCode ?? '—'}</td>
                  <td className={`${td} tabular-nums`}>{last ? `${last.durationMs} ms` : '—'}</td>
                  <td className={`${td} max-w-xs`}>
                    <code className="block truncate text-xs" title={last?.error ?? last?.responseBody}>
                      {last?.error ?? (last?.responseBody || '—')}
                    </code>
                  </td>
                  <td className={td}>
                    {d.status !== 'pending' ? (
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={async () => {
                          try {
                            await redeliver.mutateAsync(d.id);
                            toast({ title: x.redelivered });
                          } catch (err) {
                            toast({ title: errorText(err), variant: 'error' });
                          }
                        }}
                      >
                        {x.redeliver}
                      </Button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </TableShell>
      )}
    </div>
  );
}
