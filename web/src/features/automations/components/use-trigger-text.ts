import type { AutomationTrigger } from '@carteiro/shared';
import { useI18n } from '@/lib/i18n';
import { useLists } from '@/lib/queries/lists';

/** A sentence saying what starts an automation ("Quando alguém entra na lista …"). */
export function useTriggerText() {
  const { t } = useI18n();
  const lists = useLists();
  return (trigger: AutomationTrigger) => {
    switch (trigger.type) {
      case 'list_joined':
        return t('automations.trigger.listJoinedText', {
          list: lists.data?.find((l) => l.id === trigger.listId)?.name ?? '…',
        });
      case 'date_field':
        return t('automations.trigger.dateFieldText', { field: trigger.field, hour: String(trigger.hour) });
      case 'api_event':
        return trigger.eventKey
          ? t('automations.trigger.apiEventPerKeyText', { event: trigger.eventName, key: trigger.eventKey })
          : t('automations.trigger.apiEventText', { event: trigger.eventName });
    }
  };
}
