import { isEditable } from '@carteiro/shared';
import { Link, useParams } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { useCampaign } from '../api/get-campaign';
import { useCampaignSummary } from '../api/get-summary';
import type { Campaign, CampaignSummary } from '../api/types';
import { AbTestSend } from '../components/ab-test-send';
import { CampaignActions } from '../components/campaign-actions';
import { CampaignCostSummary } from '../components/campaign-cost-summary';
import { CampaignProgressCard } from '../components/campaign-live';
import { CampaignReportSection } from '../components/campaign-report';
import { CampaignSendCard } from '../components/campaign-send-card';
import { CampaignSettingsCard } from '../components/campaign-settings-card';
import { SendChecklistCard, useSendChecklist } from '../components/send-checklist';
import { SenderAlignmentCheck } from '../components/sender-alignment';
import { CampaignStatusBadge } from '../components/status-badge';
import { useTimeZone } from '../components/use-time-zone';

/** `/dashboard/campaigns/:id/view`: the campaign's settings, what sending it costs, its progress and its report. */
export function CampaignViewPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const campaign = useCampaign(id);
  usePageTitle(campaign.data?.name ?? t('page.campaignView.title'));
  if (campaign.isPending) return <LoadingPanel />;
  if (campaign.isError) return <ErrorPanel error={campaign.error} onRetry={() => campaign.refetch()} />;
  return <CampaignView campaign={campaign.data} />;
}

function CampaignView({ campaign }: { campaign: Campaign }) {
  const { t } = useI18n();
  const editable = isEditable(campaign.status);
  const summary = useCampaignSummary(campaign.id, editable);
  const timeZone = useTimeZone();

  return (
    <div>
      <Link to="/dashboard/campaigns" className="text-sm text-brand-700 hover:underline">
        {t('campaigns.backToList')}
      </Link>
      <PageHeader title={campaign.name}>
        <div className="flex flex-wrap items-center gap-2">
          <CampaignStatusBadge status={campaign.status} />
          <CampaignActions campaign={campaign} editable={editable} />
        </div>
      </PageHeader>

      {/* The cost preview is for what is still to be sent; once sending starts the report carries the numbers. */}
      {editable ? <CampaignCostSummary summary={summary} /> : null}
      {editable ? <SenderAlignmentCheck fromEmail={campaign.fromEmail} /> : null}
      {editable ? <SendChecklistFor campaign={campaign} summary={summary.data} /> : null}
      {editable && campaign.abTest ? <AbTestSend campaign={campaign} /> : null}
      <CampaignProgressCard campaign={campaign} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <CampaignSettingsCard campaign={campaign} />
        <CampaignSendCard campaign={campaign} summary={summary.data} editable={editable} timeZone={timeZone} />
      </div>
      <CampaignReportSection campaign={campaign} timeZone={timeZone} />
    </div>
  );
}

/** The shared send checklist on the campaign page, before "Enviar agora" (ADR 0017). */
function SendChecklistFor({ campaign, summary }: { campaign: Campaign; summary: CampaignSummary | undefined }) {
  return <SendChecklistCard items={useSendChecklist(campaign, summary)} />;
}
