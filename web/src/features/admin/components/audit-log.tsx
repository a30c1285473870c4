import { formatBRL } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDateTime } from '@/lib/format';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { listAuditLog } from '../api/admin';

const AUDIT_ACTIONS: Record<string, MessageKey> = {
  'account.suspend': 'admin.audit.actions.account.suspend',
  'account.reactivate': 'admin.audit.actions.account.reactivate',
  'account.price': 'admin.audit.actions.account.price',
  'balance.credit': 'admin.audit.actions.balance.credit',
  'balance.debit': 'admin.audit.actions.balance.debit',
  'topup.confirm': 'admin.audit.actions.topup.confirm',
  'topup.refund': 'admin.audit.actions.topup.refund',
  'campaign.pause': 'admin.audit.actions.campaign.pause',
  'campaign_alert.review': 'admin.audit.actions.campaign_alert.review',
  'operator.grant': 'admin.audit.actions.operator.grant',
  'operator.revoke': 'admin.audit.actions.operator.revoke',
  'user.disable': 'admin.audit.actions.user.disable',
  'user.enable': 'admin.audit.actions.user.enable',
};

/** Whom an entry without an account is about (operator access changes carry the e-mail). */
function auditSubject(entry: { accountName?: string | null; details?: unknown }): string {
  if (entry.accountName) return entry.accountName;
  const details = entry.details as Record<string, unknown> | null | undefined;
  return typeof details?.email === 'string' ? details.email : '—';
}

/** Money moved by an adjustment or a confirmed top-up, when the entry's details carry it. */
function auditAmount(details: unknown): string | null {
  if (!details || typeof details !== 'object') return null;
  const d = details as Record<string, unknown>;
  const amount = typeof d.amountMillis === 'number' ? d.amountMillis : null;
  if (amount !== null) return formatBRL(amount);
  if (typeof d.from === 'number' && typeof d.to === 'number') return `${formatBRL(d.from)} → ${formatBRL(d.to)}`;
  return null;
}

export function AuditLog() {
  const { t } = useI18n();
  const query = useQuery({ queryKey: ['admin', 'audit'], queryFn: ({ signal }) => listAuditLog(signal) });
  if (query.isPending) return <LoadingPanel />;
  if (query.isError) return <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0)
    return <EmptyState title={t('admin.audit.emptyTitle')} description={t('admin.audit.emptyBody')} />;
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full min-w-[48rem] text-sm" data-testid="audit-log">
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.when')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.action')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.account')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.reason')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.operator')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {query.data.map((entry) => {
            const label = AUDIT_ACTIONS[entry.action];
            const amount = auditAmount(entry.details);
            return (
              <tr key={entry.id} data-action={entry.action}>
                <td className="whitespace-nowrap px-4 py-3 align-top text-slate-700">
                  {formatDateTime(entry.createdAt)}
                </td>
                <td className="px-4 py-3 align-top">
                  <p className="font-medium text-slate-900">{label ? t(label) : entry.action}</p>
                  {amount ? <p className="text-xs tabular-nums text-slate-600">{amount}</p> : null}
                </td>
                <td className="px-4 py-3 align-top text-slate-700">{auditSubject(entry)}</td>
                <td className="max-w-md px-4 py-3 align-top text-slate-700">{entry.reason ?? '—'}</td>
                <td className="px-4 py-3 align-top text-xs text-slate-600">{entry.operatorEmail ?? '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
