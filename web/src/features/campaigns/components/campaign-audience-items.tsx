import type { CampaignView } from '@carteiro/shared';
import type { ComponentType, ReactNode } from 'react';
import { useI18n } from '@/lib/i18n';
import { useSegments } from '@/lib/queries/segments';

/**
 * The campaign page's audience details beyond lists: the targeted segments, and for a "reenviar para quem não
 * abriu" follow-up, who it goes to. Rendered with the page's own item component.
 */
export function CampaignAudienceItems({
  campaign,
  Item,
}: {
  campaign: Pick<CampaignView, 'includeSegmentIds' | 'resendOfCampaignId'>;
  Item: ComponentType<{ label: string; children: ReactNode }>;
}) {
  const { t } = useI18n();
  const segments = useSegments(campaign.includeSegmentIds.length > 0);
  const byId = new Map((segments.data ?? []).map((s) => [s.id, s.name]));
  return (
    <>
      {campaign.includeSegmentIds.length > 0 ? (
        <Item label={t('segments.audience.title')}>
          {campaign.includeSegmentIds.map((id) => byId.get(id) ?? '…').join(', ')}
        </Item>
      ) : null}
      {campaign.resendOfCampaignId ? (
        <Item label={t('campaigns.resend.action')}>{t('campaigns.resend.audienceNote')}</Item>
      ) : null}
    </>
  );
}
