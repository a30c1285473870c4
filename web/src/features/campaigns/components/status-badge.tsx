import { CAMPAIGN_STATUS_LABELS, type CampaignStatus } from '@carteiro/shared';
import { Badge } from '@/components/ui/badge';

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
  return <Badge tone={TONES[status]}>{CAMPAIGN_STATUS_LABELS[status]}</Badge>;
}
