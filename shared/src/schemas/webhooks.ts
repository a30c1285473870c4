import { z } from 'zod';
import { SKIP_REASONS } from '../skip-reasons';
import { validationText } from '../validation-texts';

/** Every event type an outbound webhook endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'message.delivered',
  'message.opened',
  'message.clicked',
  'message.bounced',
  'message.complained',
  'contact.unsubscribed',
  'campaign.started',
  'campaign.finished',
  'campaign.paused',
  'balance.low',
  'topup.credited',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event "enviar evento de teste" sends to one endpoint (not subscribable). */
export const WEBHOOK_TEST_EVENT = 'webhook.test' as const;
export type AnyWebhookEventType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;

/** pt-BR labels for the UI. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'message.delivered': 'Mensagem entregue ao servidor',
  'message.opened': 'Mensagem aberta',
  'message.clicked': 'Link clicado',
  'message.bounced': 'Mensagem devolvida',
  'message.complained': 'Marcada como spam',
  'contact.unsubscribed': 'Contato descadastrado',
  'campaign.started': 'Campanha iniciada',
  'campaign.finished': 'Campanha concluída',
  'campaign.paused': 'Campanha pausada',
  'balance.low': 'Saldo baixo',
  'topup.credited': 'Recarga creditada',
};

const webhookUrl = z
  .string({ error: validationText('urlRequired') })
  .trim()
  .min(1, validationText('urlRequired'))
  .max(2000, validationText('urlTooLong'))
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, validationText('urlInvalid'));

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: validationText('eventTypeUnknown') }))
  .min(1, validationText('eventTypesRequired'))
  .transform((list) => [...new Set(list)]);

export const webhookEndpointCreateSchema = z.object({
  url: webhookUrl,
  description: z.string().trim().max(200, validationText('descriptionTooLong')).default(''),
  eventTypes,
});
export type WebhookEndpointCreate = z.infer<typeof webhookEndpointCreateSchema>;

export const webhookEndpointUpdateSchema = z
  .object({
    url: webhookUrl.optional(),
    description: z.string().trim().max(200, validationText('descriptionTooLong')).optional(),
    eventTypes: eventTypes.optional(),
    enabled: z.boolean({ error: validationText('enabledRequired') }).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, validationText('nothingToChange'));
export type WebhookEndpointUpdate = z.infer<typeof webhookEndpointUpdateSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliveryFilterSchema = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: validationText('statusUnknown') }).optional(),
  eventType: z.enum(WEBHOOK_EVENT_TYPES, { error: validationText('eventTypeUnknown') }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** What the API answers for an endpoint (the secret only through its own call). */
export interface WebhookEndpointDto {
  id: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/webhooks/endpoints/:id/secret and its rotation: the signing secret (and the previous one while it signs). */
export interface WebhookSecret {
  secret: string;
  /** The previous secret, while it still signs after a rotation. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

export interface WebhookAttemptDto {
  id: string;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string;
}

export interface WebhookDeliveryDto {
  id: string;
  eventId: string;
  eventType: AnyWebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  payload: unknown;
  attemptLog: WebhookAttemptDto[];
}

// ---- Event payloads: one schema per event type (the OpenAPI generator includes WEBHOOK_EVENT_SCHEMAS). ----

const account = z.object({
  id: z.uuid().describe('Id da conta no Carteiro'),
  uuid: z.uuid().describe('Uuid da conta (criado pelo cliente)'),
});

function envelope<T extends AnyWebhookEventType, D extends z.ZodType>(type: T, data: D) {
  return z.object({
    id: z.string().describe('Id estável do evento; igual ao cabeçalho webhook-id'),
    type: z.literal(type),
    timestamp: z.iso.datetime().describe('Quando o evento aconteceu (ISO 8601, UTC)'),
    account,
    data,
  });
}

const messageRef = {
  messageId: z.string().describe('Id da mensagem'),
  campaignId: z.uuid(),
  contactId: z.uuid().nullable(),
  email: z.string(),
  tags: z.array(z.string()).describe('As etiquetas (`tags`) dadas no envio pela API; vazia para mensagens de campanha'),
  metadata: z
    .record(z.string(), z.string())
    .describe('O `metadata` dado no envio pela API; vazio para mensagens de campanha'),
};

export const WEBHOOK_EVENT_SCHEMAS = {
  'message.delivered': envelope(
    'message.delivered',
    z.object({
      ...messageRef,
      sentAt: z.iso.datetime(),
      test: z
        .literal(true)
        .optional()
        .describe('Só para mensagens de uma chave de teste (`ct_test_…`): nada foi entregue nem cobrado.'),
    }),
  ),
  'message.opened': envelope('message.opened', z.object({ ...messageRef, machine: z.boolean() })),
  'message.clicked': envelope('message.clicked', z.object({ ...messageRef, url: z.string(), machine: z.boolean() })),
  'message.bounced': envelope(
    'message.bounced',
    z.object({ ...messageRef, bounceType: z.enum(['hard', 'soft', 'policy']), reason: z.string().nullable() }),
  ),
  'message.complained': envelope('message.complained', z.object({ ...messageRef })),
  'contact.unsubscribed': envelope(
    'contact.unsubscribed',
    z.object({
      contactId: z.uuid().nullable(),
      email: z.string(),
      campaignId: z.uuid().nullable(),
      source: z.string(),
    }),
  ),
  'campaign.started': envelope(
    'campaign.started',
    z.object({ campaignId: z.uuid(), name: z.string(), recipients: z.number().int() }),
  ),
  'campaign.finished': envelope(
    'campaign.finished',
    z.object({
      campaignId: z.uuid(),
      name: z.string(),
      status: z.string(),
      counts: z.object({ sent: z.number().int(), failed: z.number().int(), skipped: z.number().int() }),
      skippedByReason: z
        .partialRecord(z.enum(SKIP_REASONS), z.number().int())
        .describe(
          'Mensagens não enviadas por motivo (o destinatário deixou de poder recebê-las, ou a campanha foi cancelada).',
        ),
      costMillis: z.number().int().describe('Custo final em milésimos de real'),
    }),
  ),
  'campaign.paused': envelope(
    'campaign.paused',
    z.object({ campaignId: z.uuid(), name: z.string(), reason: z.string() }),
  ),
  'balance.low': envelope(
    'balance.low',
    z.object({ balanceMillis: z.number().int(), thresholdMillis: z.number().int() }),
  ),
  'topup.credited': envelope(
    'topup.credited',
    z.object({ topupId: z.uuid(), amountMillis: z.number().int(), balanceMillis: z.number().int() }),
  ),
  'webhook.test': envelope('webhook.test', z.object({ message: z.string() })),
} satisfies Record<AnyWebhookEventType, z.ZodType>;

/** `data` of each event type, as the sources build it. */
export type WebhookEventData<T extends AnyWebhookEventType> = z.infer<(typeof WEBHOOK_EVENT_SCHEMAS)[T]>['data'];
