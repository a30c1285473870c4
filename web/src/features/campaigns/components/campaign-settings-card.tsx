import { abVariantLetter } from '@carteiro/shared';
import { formatDateTime } from '@/components/kit';
import { Card, CardContent } from '@/components/ui/card';
import { useI18n } from '@/lib/i18n';
import { useLists } from '@/lib/queries/lists';
import type { Campaign } from '../api/types';
import { abTestSummary } from './ab-test-fields';
import { CampaignAudienceItems } from './campaign-audience-items';
import { DetailItem as Item } from './detail-item';

/** The campaign's settings as saved: subjects (and A/B variants), sender, audience, tracking. */
export function CampaignSettingsCard({ campaign }: { campaign: Campaign }) {
  const { t } = useI18n();
  const lists = useLists();
  const listName = new Map((lists.data ?? []).map((l) => [l.id, l.name]));
  const names = (ids: string[]) =>
    ids.length ? ids.map((i) => listName.get(i) ?? t('campaigns.settings.listFallback')).join(', ') : '—';
  const tracking =
    campaign.trackOpens && campaign.trackClicks
      ? 'campaigns.settings.tracking.both'
      : campaign.trackOpens
        ? 'campaigns.settings.tracking.opens'
        : campaign.trackClicks
          ? 'campaigns.settings.tracking.clicks'
          : 'campaigns.settings.tracking.off';
  return (
    <Card>
      <CardContent>
        <h2 className="mb-3 text-lg font-bold text-slate-900">{t('campaigns.settings.title')}</h2>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <Item
            label={
              campaign.abTest ? t('campaigns.field.subjectVariant', { letter: 'A' }) : t('campaigns.field.subject')
            }
          >
            {campaign.subject || '—'}
          </Item>
          {campaign.abTest ? (
            <>
              {campaign.abTest.variants.map((variant, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the variants are positional (B, C, D)
                <Item key={index} label={t('campaigns.field.subjectVariant', { letter: abVariantLetter(index + 1) })}>
                  {variant.subject}
                  {variant.fromName ? ` — ${t('campaigns.settings.variantFrom', { name: variant.fromName })}` : ''}
                  {variant.template ? ` — ${t('campaigns.settings.variantOwnContent')}` : ''}
                </Item>
              ))}
              <Item label={t('campaigns.ab.title')}>{abTestSummary(campaign.abTest, t)}</Item>
            </>
          ) : null}
          <Item label={t('campaigns.field.preheader')}>{campaign.preheader || '—'}</Item>
          <Item label={t('campaigns.settings.sender')}>
            {campaign.fromName && campaign.fromEmail
              ? `${campaign.fromName} <${campaign.fromEmail}>`
              : campaign.fromName || campaign.fromEmail || '—'}
          </Item>
          <Item label={t('campaigns.settings.replyTo')}>{campaign.replyTo || campaign.fromEmail || '—'}</Item>
          <Item label={t('campaigns.settings.sendTo')}>{names(campaign.includeListIds)}</Item>
          <CampaignAudienceItems campaign={campaign} Item={Item} />
          <Item label={t('campaigns.settings.except')}>{names(campaign.excludeListIds)}</Item>
          <Item label={t('campaigns.settings.tracking')}>{t(tracking)}</Item>
          <Item label={t('campaigns.settings.updatedAt')}>{formatDateTime(campaign.updatedAt)}</Item>
        </dl>
      </CardContent>
    </Card>
  );
}
