import { isDeletable } from '@carteiro/shared';
import { Link, useNavigate } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import { confirmAction, toast } from '@/stores/app-store';
import { useDeleteCampaign } from '../api/delete-campaign';
import { useDuplicateCampaign } from '../api/duplicate-campaign';
import type { Campaign } from '../api/types';
import { ResendNonOpeners } from './resend-non-openers';

/**
 * The campaign page's header actions: edit and template (while editable), view in the browser, duplicate, resend to
 * non-openers (once sent) and delete (a draft, after a confirmation).
 */
export function CampaignActions({ campaign, editable }: { campaign: Campaign; editable: boolean }) {
  const { t } = useI18n();
  const remove = useDeleteCampaign();
  const duplicate = useDuplicateCampaign();
  const navigate = useNavigate();
  return (
    <>
      {editable ? (
        <>
          <Link
            to={`/dashboard/campaigns/${campaign.id}/edit`}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            {t('campaigns.view.edit')}
          </Link>
          <Link
            to={`/dashboard/campaigns/${campaign.id}/template`}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            {t('campaigns.view.template')}
          </Link>
        </>
      ) : null}
      <a
        href={`/campaign/${campaign.id}/template-viewer`}
        target="_blank"
        rel="noreferrer"
        className={buttonVariants({ variant: 'ghost', size: 'sm' })}
      >
        {t('campaigns.view.openInBrowser')}
      </a>
      <Button
        size="sm"
        variant="outline"
        onClick={async () => {
          try {
            const copy = await duplicate.mutateAsync(campaign.id);
            toast({ title: t('campaigns.view.duplicated'), variant: 'success' });
            navigate(`/dashboard/campaigns/${copy.id}/edit`);
          } catch (error) {
            toast({ title: t('campaigns.view.duplicateFailed'), description: errorText(error), variant: 'error' });
          }
        }}
      >
        {t('campaigns.view.duplicate')}
      </Button>
      {campaign.status === 'sent' ? <ResendNonOpeners campaign={campaign} /> : null}
      {isDeletable(campaign.status) ? (
        <Button
          size="sm"
          variant="destructive"
          onClick={() =>
            confirmAction({
              title: t('campaigns.view.deleteTitle'),
              description: t('campaigns.view.deleteBody', { name: campaign.name }),
              action: async () => {
                try {
                  await remove.mutateAsync(campaign.id);
                  toast({ title: t('campaigns.view.deleted'), variant: 'success' });
                  navigate('/dashboard/campaigns');
                } catch (error) {
                  toast({ title: t('campaigns.view.deleteFailed'), description: errorText(error), variant: 'error' });
                }
              },
            })
          }
        >
          {t('campaigns.view.delete')}
        </Button>
      ) : null}
    </>
  );
}
