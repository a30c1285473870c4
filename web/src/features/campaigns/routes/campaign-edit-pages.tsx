import { Link, useParams } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { useCampaign } from '../api/get-campaign';
import { CampaignForm } from '../components/form/campaign-form';

export function NewCampaignPage() {
  const { t } = useI18n();
  usePageTitle(t('page.campaignNew.title'));
  return (
    <div>
      <Link to="/dashboard/campaigns" className="text-sm text-brand-700 hover:underline">
        {t('campaigns.backToList')}
      </Link>
      <PageHeader title={t('page.campaignNew.title')} />
      <CampaignForm campaign={null} />
    </div>
  );
}

/** `/dashboard/campaigns/edit` (spec §2, no id: a new one) and `/dashboard/campaigns/:id/edit`. */
export function EditCampaignPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const campaign = useCampaign(id);
  usePageTitle(t('page.campaignEdit.title'));
  if (!id) return <NewCampaignPage />;
  if (campaign.isPending) return <LoadingPanel />;
  if (campaign.isError) return <ErrorPanel error={campaign.error} onRetry={() => campaign.refetch()} />;
  return (
    <div>
      <Link to={`/dashboard/campaigns/${id}/view`} className="text-sm text-brand-700 hover:underline">
        ← {campaign.data.name}
      </Link>
      <PageHeader title={t('page.campaignEdit.title')} />
      <CampaignForm key={campaign.data.id} campaign={campaign.data} />
    </div>
  );
}
