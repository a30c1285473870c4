import { formatBRL } from '@carteiro/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorPanel, formatNumber, Stat } from '@/components/kit';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useI18n } from '@/lib/i18n';
import type { CampaignSummary } from '../api/types';

/** Before sending: the exact recipients, the cost, the balance now and after the send. */
export function CampaignCostSummary({ summary }: { summary: UseQueryResult<CampaignSummary> }) {
  const { t } = useI18n();
  return (
    <div className="mb-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="campaign-summary">
      {summary.isPending ? (
        <Card className="col-span-full p-6">
          <Spinner label={t('campaigns.summary.calculating')} />
        </Card>
      ) : summary.isError ? (
        <div className="col-span-full">
          <ErrorPanel error={summary.error} onRetry={() => summary.refetch()} />
        </div>
      ) : (
        <>
          <Stat
            label={t('campaigns.recipients')}
            value={formatNumber(summary.data.recipients)}
            hint={t('campaigns.summary.recipientsHint')}
          />
          <Stat
            label={t('campaigns.summary.cost')}
            value={formatBRL(summary.data.costMillis)}
            hint={t('campaigns.summary.pricePerEmail', { price: formatBRL(summary.data.priceMillis) })}
          />
          <Stat label={t('campaigns.summary.balance')} value={formatBRL(summary.data.balanceMillis)} />
          <Stat
            label={t('campaigns.summary.balanceAfter')}
            value={
              <span className={summary.data.isBalanceSufficient ? '' : 'text-red-700'}>
                {formatBRL(summary.data.balanceAfterMillis)}
              </span>
            }
            hint={summary.data.isBalanceSufficient ? undefined : t('campaigns.summary.insufficient')}
          />
        </>
      )}
    </div>
  );
}
