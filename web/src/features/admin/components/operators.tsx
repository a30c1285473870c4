import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { useSessionData } from '@/lib/use-session';
import { grantOperator, listOperators, type OperatorEntry, revokeOperator } from '../api/admin';
import { confirmAdminAction } from '../utils/confirm-admin-action';
import { useField } from './use-field';

export function Operators() {
  const { t } = useI18n();
  const session = useSessionData();
  const query = useQuery({ queryKey: ['admin', 'operators'], queryFn: ({ signal }) => listOperators(signal) });
  const email = useField();
  const reason = useField();
  const [error, setError] = useState<string | null>(null);

  function onGrant(event: FormEvent) {
    event.preventDefault();
    const value = email.value.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return setError(t('admin.operators.invalidEmail'));
    if (reason.value.trim().length < 3) return setError(t('admin.reasonRequired'));
    setError(null);
    confirmAdminAction({
      title: t('admin.operators.grantConfirm'),
      description: t('admin.operators.grantBody', { email: value }),
      run: () => grantOperator({ email: value, reason: reason.value.trim() }),
      success: t('admin.operators.granted'),
      failure: t('admin.operators.failed'),
      onSuccess: () => {
        email.setValue('');
        reason.setValue('');
      },
    });
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <div className="space-y-3">
        <p className="text-sm text-slate-600">{t('admin.operators.intro')}</p>
        {query.isPending ? (
          <LoadingPanel />
        ) : query.isError ? (
          <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
            {query.data.map((op) => (
              <OperatorItem key={`${op.source}:${op.email}`} entry={op} self={op.userId === session.user.id} />
            ))}
          </ul>
        )}
      </div>
      <form
        noValidate
        onSubmit={onGrant}
        className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <h3 className="font-semibold text-slate-900">{t('admin.operators.grantTitle')}</h3>
        <div>
          <Label htmlFor={email.id}>{t('admin.operators.email')}</Label>
          <Input
            id={email.id}
            type="email"
            value={email.value}
            onChange={(e) => email.setValue(e.target.value)}
            className="mt-1"
          />
        </div>
        <div>
          <Label htmlFor={reason.id}>{t('admin.reason')}</Label>
          <Input
            id={reason.id}
            value={reason.value}
            onChange={(e) => reason.setValue(e.target.value)}
            className="mt-1"
          />
        </div>
        <FieldError>{error}</FieldError>
        <Button type="submit" size="sm">
          {t('admin.operators.grant')}
        </Button>
      </form>
    </div>
  );
}

function OperatorItem({ entry, self }: { entry: OperatorEntry; self: boolean }) {
  const { t } = useI18n();
  const reason = useField();
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const userId = entry.userId;

  function onRevoke(event: FormEvent) {
    event.preventDefault();
    if (!userId) return;
    if (reason.value.trim().length < 3) return setError(t('admin.reasonRequired'));
    setError(null);
    confirmAdminAction({
      title: t('admin.operators.revokeConfirm'),
      description: t('admin.operators.revokeBody', { email: entry.email, reason: reason.value.trim() }),
      run: () => revokeOperator(userId, reason.value.trim()),
      success: t('admin.operators.revoked'),
      failure: t('admin.operators.failed'),
    });
  }

  return (
    <li className="px-4 py-3 text-sm" data-operator={entry.email}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">
            {entry.email}
            {self ? <span className="ml-1 text-slate-500">({t('admin.operators.you')})</span> : null}
          </p>
          <p className="text-xs text-slate-500">
            {entry.name ?? t('admin.operators.notSignedUp')}
            {entry.grantedAt ? ` · ${formatDateTime(entry.grantedAt)}` : ''}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Badge tone={entry.source === 'config' ? 'neutral' : 'success'}>
            {entry.source === 'config' ? t('admin.operators.config') : t('admin.operators.role')}
          </Badge>
          {entry.source === 'role' && !self && !removing ? (
            <Button variant="outline" size="sm" onClick={() => setRemoving(true)}>
              {t('admin.operators.revoke')}
            </Button>
          ) : null}
        </div>
      </div>
      {removing ? (
        <form noValidate onSubmit={onRevoke} className="mt-3 flex flex-wrap items-end gap-2">
          <div className="min-w-[16rem] flex-1">
            <Label htmlFor={reason.id}>{t('admin.reason')}</Label>
            <Input
              id={reason.id}
              value={reason.value}
              onChange={(e) => reason.setValue(e.target.value)}
              className="mt-1"
            />
          </div>
          <Button type="submit" size="sm" variant="destructive">
            {t('admin.operators.revoke')}
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => setRemoving(false)}>
            {t('common.cancel')}
          </Button>
          <FieldError>{error}</FieldError>
        </form>
      ) : null}
    </li>
  );
}
