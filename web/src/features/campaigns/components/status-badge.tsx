import type { CampaignStatus } from '@carteiro/shared';
import { Badge } from '@/components/ui/badge';
import { useI18n } from '@/lib/i18n';

const TONES: Record<CampaignStatus, 'brand' | 'neutral' | 'success' | 'warning' | 'danger'> = {
  draft: 'neutral',
  scheduled: 'brand',
  sending: 'warning',
  paused: 'warning',
  sent: 'success',
  cancelled: 'neutral',
  failed: 'danger',
};

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const { t } = useI18n();
  return <Badge tone={TONES[status]}>{t(`campaigns.status.${status}`)}</Badge>;
}
