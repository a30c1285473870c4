import { Link } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, formatDateTime, formatNumber, LoadingPanel, TableShell, td, th } from '@/components/kit';
import { buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { useI18n } from '@/lib/i18n';
import { fillSample } from '@/lib/sample-liquid';
import { usePageTitle } from '@/lib/use-page-title';
import { useCampaigns } from '../api/get-campaigns';
import { formatRate } from '../components/report-data';
import { CampaignStatusBadge } from '../components/status-badge';

function pct(part: number, total: number): string {
  return total > 0 ? formatRate(part / total) : '—';
}

/** `/dashboard/campaigns`: every campaign in the server's order (updated_at desc) with its status and rates. */
export function CampaignsPage() {
  const { t } = useI18n();
  usePageTitle(t('page.campaigns.title'));
  const campaigns = useCampaigns();
  return (
    <div>
      <PageHeader title={t('page.campaigns.title')}>
        <div className="flex flex-wrap gap-2">
          <Link to="/dashboard/templates" className={buttonVariants({ variant: 'outline' })}>
            {t('dashboard.nav.templates')}
          </Link>
          <Link to="/dashboard/campaigns/calendar" className={buttonVariants({ variant: 'outline' })}>
            {t('dashboard.nav.calendar')}
          </Link>
          <Link to="/dashboard/campaigns/new" className={buttonVariants()}>
            {t('page.campaignNew.title')}
          </Link>
        </div>
      </PageHeader>
      {campaigns.isPending ? (
        <LoadingPanel label={t('campaigns.list.loading')} />
      ) : campaigns.isError ? (
        <ErrorPanel error={campaigns.error} onRetry={() => campaigns.refetch()} />
      ) : campaigns.data.length === 0 ? (
        <EmptyState
          title={t('campaigns.list.emptyTitle')}
          description={t('campaigns.list.emptyBody')}
          action={
            <Link to="/dashboard/campaigns/new" className={buttonVariants()}>
              {t('campaigns.list.create')}
            </Link>
          }
        />
      ) : (
        <TableShell>
          <thead>
            <tr>
              <th className={th}>{t('campaigns.list.col.campaign')}</th>
              <th className={th}>{t('campaigns.col.status')}</th>
              <th className={`${th} text-right`}>{t('campaigns.list.col.sent')}</th>
              <th className={`${th} text-right`}>{t('campaigns.col.opens')}</th>
              <th className={`${th} text-right`}>{t('campaigns.col.clicks')}</th>
              <th className={th}>{t('campaigns.list.col.updated')}</th>
            </tr>
          </thead>
          <tbody>
            {campaigns.data.map((campaign) => (
              <tr key={campaign.id} className="hover:bg-slate-50">
                <td className={td}>
                  <Link
                    to={`/dashboard/campaigns/${campaign.id}/view`}
                    className="font-semibold text-brand-800 hover:underline"
                  >
                    {campaign.name}
                  </Link>
                  <p className="max-w-xs truncate text-xs text-slate-500">
                    {campaign.subject ? fillSample(campaign.subject) : t('campaigns.list.noSubject')}
                  </p>
                </td>
                <td className={td}>
                  <CampaignStatusBadge status={campaign.status} />
                  {campaign.status === 'scheduled' && campaign.scheduledAt ? (
                    <p className="mt-1 text-xs text-slate-500">{formatDateTime(campaign.scheduledAt)}</p>
                  ) : null}
                </td>
                <td className={`${td} text-right tabular-nums`}>{formatNumber(campaign.counters.sent)}</td>
                <td className={`${td} text-right tabular-nums`}>
                  {pct(campaign.counters.opened, campaign.counters.sent)}
                </td>
                <td className={`${td} text-right tabular-nums`}>
                  {pct(campaign.counters.clicked, campaign.counters.sent)}
                </td>
                <td className={td}>{formatDateTime(campaign.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </TableShell>
      )}
    </div>
  );
}
