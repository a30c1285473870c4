import { API_KEY_SCOPE_LABELS_PT_BR, type ApiKeyScope, apiKeyCreateSchema, type CreatedApiKey } from '@carteiro/shared';
import { useState } from 'react';
import { CopyButton } from '@/components/copy-button';
import { ErrorPanel, formatDateTime, LoadingPanel, TableShell, td, th } from '@/components/kit';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { submitParsed } from '@/lib/form-fields';
import { useI18n } from '@/lib/i18n';
import { canManage, useSessionData } from '@/lib/use-session';
import { confirmAction, toast } from '@/stores/app-store';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

/**
 * The account's API keys: every member reads the table; owners and admins create (the secret is shown once,
 * with a copy button) and revoke (with confirmation).
 */
export function KeysSection({ onCreated }: { onCreated?: (key: CreatedApiKey) => void }) {
  const { t } = useI18n();
  const session = useSessionData();
  const manage = canManage(session);
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  return (
    <section aria-labelledby="api-keys-title" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="api-keys-title" className="text-lg font-semibold text-slate-900">
            {t('apiKeys.title')}
          </h2>
          <p className="text-sm text-slate-600">{manage ? t('apiKeys.intro') : t('apiKeys.readOnly')}</p>
        </div>
        {manage ? <Button onClick={() => setCreating(true)}>{t('apiKeys.new')}</Button> : null}
      </div>

      {created ? (
        <Card className="border-emerald-200 bg-emerald-50 p-5" role="status" data-testid="api-key-created">
          <p className="font-semibold text-emerald-900">{t('apiKeys.createdTitle', { name: created.name })}</p>
          <p className="mt-1 text-sm text-emerald-900">{t('apiKeys.createdOnce')}</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <code
              className="min-w-0 flex-1 break-all rounded-lg border border-emerald-200 bg-white px-3 py-2 font-mono text-sm text-slate-900"
              data-testid="api-key-secret"
            >
              {created.secret}
            </code>
            <CopyButton text={created.secret} testId="api-key-copy" />
          </div>
          <Button variant="link" className="mt-2 text-sm" onClick={() => setCreated(null)}>
            {t('apiKeys.savedIt')}
          </Button>
        </Card>
      ) : null}

      {keys.isPending ? (
        <LoadingPanel />
      ) : keys.isError ? (
        <ErrorPanel error={keys.error} onRetry={() => keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <EmptyState title={t('apiKeys.empty.title')} description={t('apiKeys.empty.body')} />
      ) : (
        <TableShell>
          <thead>
            <tr>
              <th className={th}>{t('apiKeys.table.name')}</th>
              <th className={th}>{t('apiKeys.table.key')}</th>
              <th className={th}>{t('apiKeys.table.scope')}</th>
              <th className={th}>{t('apiKeys.table.created')}</th>
              <th className={th}>{t('apiKeys.table.lastUsed')}</th>
              {manage ? <th className={th}>{t('apiKeys.table.actions')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id} className={key.revokedAt ? 'text-slate-400' : 'hover:bg-slate-50'}>
                <td className={td}>
                  <span className="font-semibold text-slate-900">{key.name}</span>
                  {key.revokedAt ? (
                    <Badge tone="danger" className="ml-2">
                      {t('apiKeys.revoked')}
                    </Badge>
                  ) : null}
                </td>
                <td className={td}>
                  <code className="font-mono text-sm">{key.prefix}…</code>
                </td>
                <td className={td}>
                  <Badge tone={key.scope === 'full' ? 'brand' : 'neutral'}>
                    {API_KEY_SCOPE_LABELS_PT_BR[key.scope]}
                    {key.mode === 'test' ? ` · ${t('apiKeys.mode.test')}` : ''}
                  </Badge>
                </td>
                <td className={td}>
                  {formatDateTime(key.createdAt)}
                  <p className="text-xs text-slate-500">{key.createdBy.name ?? key.createdBy.email ?? '—'}</p>
                </td>
                <td className={td}>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : t('apiKeys.neverUsed')}</td>
                {manage ? (
                  <td className={td}>
                    {key.revokedAt ? (
                      <span className="text-xs">{formatDateTime(key.revokedAt)}</span>
                    ) : (
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() =>
                          confirmAction({
                            title: t('apiKeys.revokeTitle', { name: key.name }),
                            description: t('apiKeys.revokeBody'),
                            action: async () => {
                              try {
                                await revoke.mutateAsync(key.id);
                                toast({ title: t('apiKeys.revokedToast'), description: key.name, variant: 'success' });
                              } catch (failure) {
                                toast({
                                  title: t('apiKeys.revokeFailed'),
                                  description: errorText(failure),
                                  variant: 'error',
                                });
                              }
                            },
                          })
                        }
                      >
                        {t('apiKeys.revoke')}
                      </Button>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </TableShell>
      )}

      <CreateKeyDialog
        open={creating}
        onCancel={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
          onCreated?.(key);
        }}
      />
    </section>
  );
}

function CreateKeyDialog({
  open,
  onCancel,
  onCreated,
}: {
  open: boolean;
  onCancel: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const { t } = useI18n();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('full');
  const [test, setTest] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const formId = 'api-key-create-form';
  return (
    <AlertDialog
      open={open}
      title={t('apiKeys.createTitle')}
      description={t('apiKeys.createBody')}
      onCancel={onCancel}
      footer={
        <>
          <Button variant="outline" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} disabled={create.isPending}>
            {t('apiKeys.create')}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        className="mt-4 space-y-4"
        onSubmit={async (event) => {
          event.preventDefault();
          const input = { name, scope: test ? 'send_only' : scope, mode: test ? 'test' : 'live' };
          await submitParsed(
            apiKeyCreateSchema,
            input,
            setError,
            async (values) => {
              const key = await create.mutateAsync(values);
              setName('');
              setScope('full');
              setTest(false);
              onCreated(key);
            },
            t('apiKeys.checkFields'),
          );
        }}
      >
        <div>
          <Label htmlFor="api-key-name">{t('apiKeys.fields.name')}</Label>
          <Input
            id="api-key-name"
            data-autofocus
            className="mt-1.5"
            value={name}
            maxLength={100}
            placeholder={t('apiKeys.fields.namePlaceholder')}
            aria-invalid={Boolean(error) || undefined}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t('apiKeys.fields.scope')}</legend>
          <div className="mt-2 space-y-2">
            {(
              [
                ['full', 'apiKeys.scope.fullHint'],
                ['send_only', 'apiKeys.scope.sendOnlyHint'],
              ] as const
            ).map(([value, hint]) => (
              <label
                key={value}
                className={`flex cursor-pointer gap-3 rounded-xl border p-3 ${scope === value ? 'border-brand-600 bg-brand-50' : 'border-slate-200'}`}
              >
                <input
                  type="radio"
                  name="scope"
                  value={value}
                  checked={(test ? 'send_only' : scope) === value}
                  disabled={test && value === 'full'}
                  onChange={() => setScope(value)}
                  className="mt-1 accent-brand-700"
                />
                <span>
                  <span className="block font-semibold text-slate-900">{API_KEY_SCOPE_LABELS_PT_BR[value]}</span>
                  <span className="block text-sm text-slate-600">{t(hint)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex cursor-pointer gap-3 rounded-xl border border-slate-200 p-3">
          <input
            type="checkbox"
            name="mode"
            checked={test}
            onChange={(event) => setTest(event.target.checked)}
            className="mt-1 accent-brand-700"
          />
          <span>
            <span className="block font-semibold text-slate-900">{t('apiKeys.mode.test')}</span>
            <span className="block text-sm text-slate-600">{t('apiKeys.mode.testHint')}</span>
          </span>
        </label>
        {error ? <FieldError>{error}</FieldError> : null}
      </form>
    </AlertDialog>
  );
}
