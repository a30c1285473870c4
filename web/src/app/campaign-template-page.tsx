import { isEditable } from '@carteiro/shared';
import { Link, useParams } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { useCampaign } from '@/features/campaigns/api/get-campaign';
import { previewCampaign } from '@/features/campaigns/api/preview-campaign';
import { testSendCampaign } from '@/features/campaigns/api/test-send-campaign';
import type { Campaign } from '@/features/campaigns/api/types';
import { useUpdateCampaign } from '@/features/campaigns/api/update-campaign';
import { CampaignStatusBadge } from '@/features/campaigns/components/status-badge';
import { TemplateEditor } from '@/features/templates/components/template-editor';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * A campaign's own copy of its template (`/dashboard/campaigns/:id/template`): the templates feature's editor on
 * the campaigns feature's data, so the two features meet here rather than importing each other.
 */
export function CampaignTemplatePage() {
  const { id = '' } = useParams();
  const campaign = useCampaign(id);
  const { t } = useI18n();
  usePageTitle(t('campaignTemplate.title'));
  if (campaign.isPending) return <LoadingPanel />;
  if (campaign.isError) return <ErrorPanel error={campaign.error} onRetry={() => campaign.refetch()} />;
  return <CampaignTemplateEditor campaign={campaign.data} />;
}

function CampaignTemplateEditor({ campaign }: { campaign: Campaign }) {
  const { t } = useI18n();
  const update = useUpdateCampaign(campaign.id);
  const editable = isEditable(campaign.status);
  return (
    <div>
      <Link to={`/dashboard/campaigns/${campaign.id}/view`} className="text-sm text-brand-700 hover:underline">
        ← {campaign.name}
      </Link>
      <PageHeader title={t('campaignTemplate.title')}>
        <CampaignStatusBadge status={campaign.status} />
      </PageHeader>
      <p className="-mt-4 mb-4 text-sm text-slate-600">{t('campaignTemplate.ownCopy')}</p>
      <TemplateEditor
        readOnly={!editable}
        initial={{ html: campaign.template, project: campaign.templateProject }}
        onSave={async ({ html, project }) => {
          await update.mutateAsync({ template: html, templateProject: project });
        }}
        renderPreview={async (_content, contactId) => (await previewCampaign(campaign.id, contactId ?? undefined)).html}
        onTestSend={async (_content, emails, contactId) =>
          (await testSendCampaign(campaign.id, emails, contactId ?? undefined)).sent
        }
      />
    </div>
  );
}
