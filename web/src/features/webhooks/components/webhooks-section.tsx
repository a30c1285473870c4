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
import { submitParsed } from '@/lib/form-fields';
import { type MessageKey, useI18n } from '@/lib/i18n';
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
import { attemptsLabel, eventLabel } from '../labels';

/** Outbound webhooks on the API page: endpoints, their secret, a test event and the delivery log. */
export function WebhooksSection() {
  const { t } = useI18n();
  const endpoints = useWebhookEndpoints();
  const [adding, setAdding] = useState(false);
  return (
    <section className="mt-10 space-y-4" aria-labelledby="webhooks-title">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="webhooks-title" className="text-xl font-bold text-slate-900">
            {t('webhooks.title')}
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">{t('webhooks.intro')}</p>
        </div>
        {!adding ? <Button onClick={() => setAdding(true)}>{t('webhooks.add')}</Button> : null}
      </div>
      {adding ? <EndpointForm onDone={() => setAdding(false)} /> : null}
      {endpoints.isPending ? (
        <LoadingPanel />
      ) : endpoints.isError ? (
        <ErrorPanel error={endpoints.error} onRetry={() => endpoints.refetch()} />
      ) : endpoints.data.length === 0 ? (
        <div className="space-y-1 text-sm text-slate-500">
          <p>{t('webhooks.empty')}</p>
          <p className="max-w-2xl">{t('webhooks.emptyHint')}</p>
        </div>
      ) : (
        endpoints.data.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} />)
      )}
    </section>
  );
}

function EndpointForm({ endpoint, onDone }: { endpoint?: WebhookEndpointDto; onDone: () => void }) {
  const { t } = useI18n();
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
          await submitParsed(
            webhookEndpointCreateSchema,
            { url, description, eventTypes: types },
            setError,
            async (input) => {
              if (endpoint) await update.mutateAsync({ id: endpoint.id, input });
              else await create.mutateAsync(input);
              toast({ title: t('webhooks.saved'), variant: 'success' });
              onDone();
            },
            t('webhooks.pickEvent'),
          );
        }}
      >
        <div className="space-y-1.5">
          <Label htmlFor="webhook-url">{t('webhooks.url')}</Label>
          <Input
            id="webhook-url"
            type="url"
            placeholder="https://meusistema.com.br/webhooks/carteiro"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="webhook-description">{t('webhooks.description')}</Label>
          <Input id="webhook-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <fieldset>
          <legend className="text-sm font-semibold text-slate-800">{t('webhooks.events')}</legend>
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
                <span>{eventLabel(t, type)}</span>
                <code className="text-xs text-slate-400">{type}</code>
              </label>
            ))}
          </div>
        </fieldset>
        {error ? <FieldError>{error}</FieldError> : null}
        <div className="flex gap-2">
          <Button type="submit" disabled={pending}>
            {t('webhooks.save')}
          </Button>
          <Button type="button" variant="outline" onClick={onDone}>
            {t('common.cancel')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpointDto }) {
  const { t } = useI18n();
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
        <Badge tone={endpoint.enabled ? 'success' : 'warning'}>
          {endpoint.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
        </Badge>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          onClick={() => run(() => test.mutateAsync(endpoint.id).then(() => setShowLog(true)), t('webhooks.testSent'))}
        >
          {t('webhooks.sendTest')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setShowLog((v) => !v)}>
          {showLog ? t('webhooks.hideLog') : t('webhooks.showLog')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
          {t('webhooks.edit')}
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => run(() => update.mutateAsync({ id: endpoint.id, input: { enabled: !endpoint.enabled } }))}
        >
          {endpoint.enabled ? t('webhooks.disable') : t('webhooks.enable')}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() =>
            confirmAction({
              title: t('webhooks.remove'),
              description: t('webhooks.removeConfirm'),
              action: () => run(() => remove.mutateAsync(endpoint.id)),
            })
          }
        >
          {t('webhooks.remove')}
        </Button>
      </div>
      <div className="rounded-lg bg-slate-50 p-3 text-sm">
        <p className="font-semibold text-slate-800">{t('webhooks.secret')}</p>
        {secret ? (
          <div className="mt-1 space-y-1">
            <code className="block break-all text-slate-900" data-testid="webhook-secret">
              {secret.secret}
            </code>
            {secret.previousSecret ? (
              <p className="text-xs text-slate-500">
                {t('webhooks.previousSecret', { until: formatDateTime(secret.previousSecretExpiresAt) })}:{' '}
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
            {secret ? t('webhooks.hide') : t('webhooks.reveal')}
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() =>
              confirmAction({
                title: t('webhooks.rotate'),
                description: t('webhooks.rotateConfirm'),
                action: () => run(async () => setSecret(await rotate.mutateAsync(endpoint.id))),
              })
            }
          >
            {t('webhooks.rotate')}
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
  const { t, locale } = useI18n();
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [eventType, setEventType] = useState('');
  const deliveries = useWebhookDeliveries(endpointId, { status, eventType });
  const redeliver = useRedeliverWebhook();
  return (
    <div className="space-y-3" data-testid="webhook-delivery-log">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="mr-auto font-semibold text-slate-900">{t('webhooks.log')}</h3>
        <Select
          className="w-auto"
          aria-label={t('webhooks.status')}
          value={status}
          onChange={(e) => setStatus(e.target.value as WebhookDeliveryStatus | '')}
        >
          <option value="">{t('webhooks.allStatuses')}</option>
          {WEBHOOK_DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`webhooks.${s}` as MessageKey)}
            </option>
          ))}
        </Select>
        <Select
          className="w-auto"
          aria-label={t('webhooks.event')}
          value={eventType}
          onChange={(e) => setEventType(e.target.value)}
        >
          <option value="">{t('webhooks.allEvents')}</option>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {eventLabel(t, type)}
            </option>
          ))}
        </Select>
      </div>
      {deliveries.isPending ? (
        <LoadingPanel />
      ) : deliveries.isError ? (
        <ErrorPanel error={deliveries.error} onRetry={() => deliveries.refetch()} />
      ) : deliveries.data.length === 0 ? (
        <p className="text-sm text-slate-500">{t('webhooks.noDeliveries')}</p>
      ) : (
        <TableShell>
          <thead>
            <tr>
              <th className={th}>{t('webhooks.when')}</th>
              <th className={th}>{t('webhooks.event')}</th>
              <th className={th}>{t('webhooks.status')}</th>
              <th className={th}>{t('webhooks.http')}</th>
              <th className={th}>{t('webhooks.duration')}</th>
              <th className={th}>{t('webhooks.answer')}</th>
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
                    <span className="block">{eventLabel(t, d.eventType)}</span>
                    <code className="text-xs text-slate-400">{d.eventId}</code>
                  </td>
                  <td className={td}>
                    <Badge tone={statusTone(d.status)}>{t(`webhooks.${d.status}` as MessageKey)}</Badge>
                    <span className="block text-xs text-slate-500">{attemptsLabel(t, locale, d.attempts)}</span>
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
                            toast({ title: t('webhooks.redelivered') });
                          } catch (err) {
                            toast({ title: errorText(err), variant: 'error' });
                          }
                        }}
                      >
                        {t('webhooks.redeliver')}
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
