import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_SCHEMAS,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
} from '@carteiro/shared';
import type { OpenApiExtras } from '../public-api/openapi';

/**
 * The `webhooks` map of the OpenAPI document: one entry per event type, from the same zod schemas the
 * emitters are tested against (shared/src/schemas/webhooks.ts), so the document cannot drift from the payloads.
 */
export function webhookOpenApiExtras(): OpenApiExtras {
  const webhooks: NonNullable<OpenApiExtras['webhooks']> = {};
  for (const [type, schema] of Object.entries(WEBHOOK_EVENT_SCHEMAS)) {
    const summary = type === WEBHOOK_TEST_EVENT ? 'Evento de teste' : WEBHOOK_EVENT_LABELS[type as WebhookEventType];
    webhooks[type] = {
      summary,
      description:
        'Enviado por POST à URL do endpoint, assinado conforme Standard Webhooks (cabeçalhos webhook-id, ' +
        'webhook-timestamp e webhook-signature).',
      schema,
    };
  }
  return { webhooks };
}
