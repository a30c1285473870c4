import { DEFAULT_TIME_ZONE, formatBRL } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { formatCount, formatDate } from '@/lib/format';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { BALANCE_QUERY_KEY, getBalance } from '@/lib/queries/balance';
import { usePageTitle } from '@/lib/use-page-title';
import { canManage, useSessionData } from '@/lib/use-session';
import { listTopups, TOPUPS_QUERY_KEY, type TopupSummary } from '../api/topups';
import { Statement } from '../components/statement';
import { TopupForm } from '../components/topup-form';

/** "Meu saldo": balance, e-mails it pays, Pix top-up, the extrato and recent top-ups. */
export function MyBalancePage() {
  const { t } = useI18n();
  const session = useSessionData();
  const manager = canManage(session);
  const timeZone = String(session.account?.timeZone ?? DEFAULT_TIME_ZONE);
  const [adding, setAdding] = useState(false);
  const balance = useQuery({ queryKey: BALANCE_QUERY_KEY, queryFn: ({ signal }) => getBalance(signal) });

  usePageTitle(t('balance.title'));

  return (
    <div className="space-y-6">
      <PageHeader title={t('balance.title')}>
        {manager && !adding ? <Button onClick={() => setAdding(true)}>{t('balance.addCredits')}</Button> : null}
      </PageHeader>

      <Card>
        <CardContent>
          {balance.isPending ? (
            <div className="flex justify-center py-6">
              <Spinner label={t('common.loading')} />
            </div>
          ) : balance.isError ? (
            <div role="alert" className="flex flex-col items-start gap-3">
              <p className="font-semibold text-slate-900">{t('balance.error')}</p>
              <p className="text-sm text-slate-600">{errorText(balance.error)}</p>
              <Button variant="outline" size="sm" onClick={() => void balance.refetch()}>
                {t('common.retry')}
              </Button>
            </div>
          ) : (
            <div className="flex flex-wrap items-end justify-between gap-6">
              <div>
                <p className="text-sm font-medium text-slate-600">{t('balance.available')}</p>
                <p className="mt-1 text-4xl font-bold tracking-tight text-slate-900 tabular-nums" data-testid="balance">
                  {formatBRL(balance.data.balanceMillis)}
                </p>
                <p className="mt-2 text-sm text-slate-600">
                  {t('balance.pays', {
                    count: formatCount(balance.data.emailsPaid),
                    price: formatBRL(balance.data.priceMillis),
                  })}
                </p>
              </div>
              {balance.data.lowBalance ? (
                <div className="max-w-sm rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
                  <p className="font-semibold">{t('balance.low.title')}</p>
                  <p className="mt-1">
                    {t('balance.low.body', { threshold: formatBRL(balance.data.lowBalanceThresholdMillis) })}
                  </p>
                </div>
              ) : null}
            </div>
          )}
          {adding && balance.data ? (
            <div className="mt-6 border-t border-slate-200 pt-6">
              <h2 className="mb-1 text-lg font-bold text-slate-900">{t('balance.topup.title')}</h2>
              <p className="mb-4 text-sm text-slate-600">{t('balance.topup.subtitle')}</p>
              <TopupForm priceMillis={balance.data.priceMillis} onCancel={() => setAdding(false)} />
            </div>
          ) : null}
        </CardContent>
      </Card>

      {manager ? (
        <>
          <Statement timeZone={timeZone} />
          <RecentTopups timeZone={timeZone} />
        </>
      ) : (
        <p className="rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm text-slate-600">
          {t('balance.memberNotice')}
        </p>
      )}
    </div>
  );
}

const STATUS: Record<
  TopupSummary['status'],
  { label: MessageKey; tone: 'success' | 'warning' | 'neutral' | 'danger' }
> = {
  pending: { label: 'balance.status.pending', tone: 'warning' },
  paid: { label: 'balance.status.paid', tone: 'success' },
  expired: { label: 'balance.status.expired', tone: 'neutral' },
  cancelled: { label: 'balance.status.cancelled', tone: 'neutral' },
  review: { label: 'balance.status.review', tone: 'danger' },
};

function RecentTopups({ timeZone }: { timeZone: string }) {
  const { t } = useI18n();
  const topups = useQuery({ queryKey: TOPUPS_QUERY_KEY, queryFn: ({ signal }) => listTopups(signal) });
  if (topups.isPending || (topups.data && topups.data.length === 0)) return null;
  return (
    <section aria-labelledby="recargas-title" className="rounded-2xl border border-slate-200 bg-white shadow-sm">
      <h2 id="recargas-title" className="border-b border-slate-200 p-4 text-lg font-bold text-slate-900 sm:px-6">
        {t('balance.topups.title')}
      </h2>
      {topups.isError ? (
        <div role="alert" className="flex items-center justify-between gap-3 p-4 text-sm sm:px-6">
          <span className="text-slate-700">{errorText(topups.error)}</span>
          <Button variant="outline" size="sm" onClick={() => void topups.refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      ) : (
        <ul className="divide-y divide-slate-100">
          {topups.data.slice(0, 10).map((topup) => (
            <li key={topup.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm sm:px-6">
              <div className="flex items-center gap-3">
                <span className="font-semibold tabular-nums text-slate-900">{formatBRL(topup.amountMillis)}</span>
                <Badge tone={STATUS[topup.status].tone}>{t(STATUS[topup.status].label)}</Badge>
                <span className="text-slate-500">{formatDate(topup.createdAt, timeZone)}</span>
              </div>
              <Link
                to={
                  topup.status === 'paid'
                    ? `/dashboard/my-balance/topups/${topup.id}/receipt`
                    : `/dashboard/my-balance/topups/${topup.id}`
                }
                className="font-medium text-brand-700 hover:text-brand-900"
              >
                {topup.status === 'paid' ? t('balance.statement.receipt') : t('balance.topups.open')}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
