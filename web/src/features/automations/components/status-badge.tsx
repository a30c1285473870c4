import type { AutomationStatus } from '@carteiro/shared';
import { Badge } from '@/components/ui/badge';
import { type MessageKey, useI18n } from '@/lib/i18n';

const STATUS_TONE: Record<AutomationStatus, 'neutral' | 'success' | 'warning'> = {
  draft: 'neutral',
  active: 'success',
  paused: 'warning',
};

/** The automation's state (rascunho, ativa, pausada) as a coloured badge. */
export function StatusBadge({ status }: { status: AutomationStatus }) {
  const { t } = useI18n();
  return (
    <Badge tone={STATUS_TONE[status]} data-testid="automation-status">
      {t(`automations.status.${status}` as MessageKey)}
    </Badge>
  );
}
