import type { AnyWebhookEventType } from '@carteiro/shared';
import { pluralForm } from '@/components/kit';
import type { Locale, MessageKey, MessageParams } from '@/lib/i18n';

type Translate = (key: MessageKey, params?: MessageParams) => string;

const EVENT_LABEL: Record<AnyWebhookEventType, MessageKey> = {
  'message.delivered': 'webhooks.event.message.delivered',
  'message.opened': 'webhooks.event.message.opened',
  'message.clicked': 'webhooks.event.message.clicked',
  'message.bounced': 'webhooks.event.message.bounced',
  'message.complained': 'webhooks.event.message.complained',
  'contact.unsubscribed': 'webhooks.event.contact.unsubscribed',
  'campaign.started': 'webhooks.event.campaign.started',
  'campaign.finished': 'webhooks.event.campaign.finished',
  'campaign.paused': 'webhooks.event.campaign.paused',
  'balance.low': 'webhooks.event.balance.low',
  'topup.credited': 'webhooks.event.topup.credited',
  'webhook.test': 'webhooks.event.webhook.test',
};

/** An event type's name from the catalogue ("Mensagem aberta"); a type this build does not know shows as sent. */
export function eventLabel(t: Translate, type: string): string {
  const key = EVENT_LABEL[type as AnyWebhookEventType];
  return key ? t(key) : type;
}

/** "1 tentativa" / "3 tentativas": a real plural, never the "(s)" shortcut. */
export function attemptsLabel(t: Translate, locale: Locale, count: number): string {
  return t(`webhooks.attempts.${pluralForm(locale, count)}`, { count });
}
