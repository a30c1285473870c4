import { formatBRL } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { confirmTopup, listAdminAccounts, listPendingTopups } from '../api/admin';
import { confirmAdminAction } from '../utils/confirm-admin-action';

export function PendingTopups() {
  const { t } = useI18n();
  const topups = useQuery({ queryKey: ['admin', 'topups'], queryFn: ({ signal }) => listPendingTopups(signal) });
  const accounts = useQuery({ queryKey: ['admin', 'accounts'], queryFn: ({ signal }) => listAdminAccounts(signal) });
  if (topups.isPending) return <LoadingPanel />;
  if (topups.isError) return <ErrorPanel error={topups.error} onRetry={() => void topups.refetch()} />;
  if (topups.data.length === 0) {
    return <EmptyState title={t('admin.topups.emptyTitle')} description={t('admin.topups.emptyBody')} />;
  }
  const nameOf = (id: string) => accounts.data?.find((a) => a.id === id);
  return (
    <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
      {topups.data.map((topup) => {
        const account = nameOf(topup.accountId);
        return (
          <li
            key={topup.id}
            className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm"
            data-txid={topup.txid}
          >
            <div className="min-w-0">
              <p className="font-semibold tabular-nums text-slate-900">
                {formatBRL(topup.amountMillis)}{' '}
                <Badge tone={topup.status === 'pending' ? 'warning' : topup.status === 'review' ? 'danger' : 'neutral'}>
                  {t(`balance.status.${topup.status}`)}
                </Badge>
              </p>
              <p className="truncate text-xs text-slate-500">
                {account ? `${account.name} · ${account.ownerEmail ?? ''}` : topup.accountId} · txid {topup.txid} ·{' '}
                {formatDateTime(topup.createdAt)}
              </p>
              {topup.reviewReason ? <p className="text-xs text-red-700">{topup.reviewReason}</p> : null}
            </div>
            <Button
              size="sm"
              onClick={() =>
                confirmAdminAction({
                  title: t('admin.topups.confirmTitle'),
                  description: t('admin.topups.confirmBody', {
                    amount: formatBRL(topup.amountMillis),
                    account: account?.name ?? topup.accountId,
                  }),
                  run: () => confirmTopup(topup.id),
                  success: t('admin.topups.confirmed'),
                  failure: t('admin.topups.failed'),
                })
              }
            >
              {t('admin.topups.confirm')}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
