import {
  AB_CRITERIA,
  MESSAGE_STREAMS,
  PUBLIC_API_ERROR_CODES,
  SKIP_REASON_LABELS,
  SKIP_REASONS,
  SUPPRESSION_REASON_VALUES,
} from '@carteiro/shared';
import { z } from 'zod';

/**
 * Zod schemas of the public API's answers (the DTOs the module functions return), for the OpenAPI document and
 * the contract test. Request bodies use the shared schemas the web uses.
 */

const isoDate = z.string().describe('Data e hora ISO 8601 (UTC).');

export const contactSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    fields: z.record(z.string(), z.string()).describe('Campos personalizados.'),
    status: z.enum(['subscribed', 'unsubscribed', 'bounced', 'complained']),
    consent: z.object({
      legalBasis: z.string().nullable(),
      source: z.string().nullable(),
      ip: z.string().nullable(),
      at: isoDate.nullable(),
      text: z.string().nullable(),
    }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Contact' });

export const contactDetailSchema = contactSchema
  .extend({
    lists: z.array(z.object({ listId: z.uuid(), status: z.string(), createdAt: isoDate })),
  })
  .meta({ id: 'ContactDetail' });

export const contactPageSchema = z
  .object({
    items: z.array(contactSchema),
    nextCursor: z.string().nullable().describe('Cursor da próxima página; null na última.'),
  })
  .meta({ id: 'ContactPage' });

export const errorSchema = z
  .object({
    error: z.object({
      code: z
        .enum(PUBLIC_API_ERROR_CODES)
        .describe('O que aconteceu, para o seu código decidir (tabela completa em docs/api-errors.md).'),
      message: z.string().describe('Mensagem em português do Brasil.'),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });

export const listSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    optIn: z.enum(['single', 'double']),
    contactCount: z.number().int(),
    subscribedCount: z.number().int(),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'List' });

const nextCursor = z.string().nullable().describe('Cursor da próxima página (passe em `cursor`); null na última.');

export const listCollectionSchema = z.object({ items: z.array(listSchema), nextCursor }).meta({ id: 'ListCollection' });

export const affectedSchema = z
  .object({ affected: z.number().int().describe('Quantos registros mudaram.') })
  .meta({ id: 'Affected' });

export const listJoinSchema = z
  .object({
    affected: z.number().int().describe('Quantas inscrições novas foram criadas (inscritas + pendentes).'),
    subscribed: z.number().int().describe('Inscrições novas já ativas (listas com confirmação simples).'),
    pending: z
      .number()
      .int()
      .describe('Inscrições novas pendentes (listas com confirmação dupla): entram quando a pessoa confirmar.'),
    skipped: z
      .number()
      .int()
      .describe('Contatos deixados de fora: descadastrados, com devolução, reclamação ou na lista de supressão.'),
    confirmationsSent: z
      .number()
      .int()
      .describe(
        'E-mails de confirmação enviados (um por contato, cobrado como qualquer mensagem, do remetente padrão da conta).',
      ),
  })
  .meta({ id: 'ListJoin' });

/**
 * What an operation that may put contacts on a double opt-in list can answer besides its own errors: the
 * confirmations are messages of the account (402 short balance, 403 default sender not verified).
 */
export const LIST_JOIN_ERRORS = ['insufficient_balance', 'sender_not_verified'] as const;

const templateSummaryFields = {
  id: z.uuid(),
  name: z.string(),
  subject: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
};
export const templateSummarySchema = z.object(templateSummaryFields).meta({ id: 'TemplateSummary' });
export const templateSchema = z
  .object({
    ...templateSummaryFields,
    html: z.string(),
    text: z.string().nullable(),
    builderProject: z.record(z.string(), z.unknown()).nullable(),
    variables: z
      .array(z.string())
      .describe(
        'As variáveis por mensagem que o modelo declara (`{{ dados.<nome> }}`); cada envio informa todas em `data`.',
      ),
  })
  .meta({ id: 'Template' });
export const templateCollectionSchema = z
  .object({ items: z.array(templateSummarySchema), nextCursor })
  .meta({ id: 'TemplateCollection' });

export const renderedSchema = z
  .object({
    subject: z.string(),
    html: z.string(),
    text: z.string(),
    contact: z.object({ email: z.string() }).loose(),
  })
  .meta({ id: 'RenderedPreview' });

const counter = z.number().int();
/** A campaign's A/B test as answered (variants B–D; A is the campaign itself). */
const abTestViewSchema = z
  .object({
    variants: z.array(
      z.object({ subject: z.string(), fromName: z.string().nullable(), template: z.string().nullable() }),
    ),
    testPercent: z.number().int(),
    criterion: z.enum(AB_CRITERIA),
    waitHours: z.number().int(),
  })
  .describe(
    'Teste A/B: as variantes B a D (a variante A é a própria campanha), a parte do público no teste, o critério e a espera.',
  );

export const campaignSchema = z
  .object({
    id: z.uuid(),
    uuid: z.uuid(),
    name: z.string(),
    subject: z.string(),
    preheader: z.string(),
    fromName: z.string().nullable(),
    fromEmail: z.string().nullable(),
    replyTo: z.string().nullable(),
    includeListIds: z.array(z.uuid()),
    excludeListIds: z.array(z.uuid()),
    template: z.string(),
    trackOpens: z.boolean(),
    trackClicks: z.boolean(),
    abTest: abTestViewSchema.nullable(),
    status: z.enum(['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled', 'failed']),
    scheduledAt: isoDate.nullable(),
    startedAt: isoDate.nullable(),
    finishedAt: isoDate.nullable(),
    counters: z.object({
      recipients: counter,
      sent: counter,
      failed: counter,
      bounced: counter,
      opened: counter,
      clicked: counter,
      unsubscribed: counter,
      complained: counter,
    }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .loose()
  .meta({ id: 'Campaign' });
export const campaignListItemSchema = campaignSchema
  .omit({ template: true, abTest: true })
  .extend({ isAbTest: z.boolean().describe('Se é um teste A/B (leia a campanha para ver as variantes).') })
  .meta({ id: 'CampaignListItem' });
export const campaignCollectionSchema = z
  .object({ items: z.array(campaignListItemSchema), nextCursor })
  .meta({ id: 'CampaignCollection' });

export const campaignStartedSchema = z
  .object({
    ok: z.literal(true),
    campaignId: z.uuid(),
    recipients: counter,
    reservedMillis: z.number().int().describe('Valor reservado no saldo (milésimos de real).'),
  })
  .meta({ id: 'CampaignStarted' });

export const campaignStatusSchema = z
  .object({ status: z.enum(['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled', 'failed']) })
  .meta({ id: 'CampaignStatus' });

export const campaignReportSchema = z
  .object({
    campaignId: z.uuid(),
    recipients: counter,
    delivered: counter,
    failed: counter,
    skipped: counter,
    skippedByReason: z
      .partialRecord(z.enum(SKIP_REASONS), counter)
      .describe(
        `Não enviadas por motivo: ${SKIP_REASONS.map((r) => `\`${r}\` (${SKIP_REASON_LABELS[r]})`).join(', ')}.`,
      ),
    pending: counter,
    opens: z.object({ uniqueHuman: counter, machine: counter, total: counter, rate: z.number() }),
    clicks: z.object({
      unique: counter,
      machine: counter,
      total: counter,
      rate: z.number(),
      clickToOpenRate: z.number(),
    }),
    links: z.array(z.object({ id: z.number(), url: z.string(), clicks: counter, uniqueClicks: counter })),
    unsubscribes: counter,
    bounces: z.object({ hard: counter, soft: counter, policy: counter }),
    complaints: counter,
    pausedReason: z.string().nullable(),
    abTest: z
      .object({
        criterion: z.enum(AB_CRITERIA),
        testPercent: z.number().int(),
        waitHours: z.number().int(),
        decideAt: isoDate.describe('Quando o vencedor é (ou foi) escolhido.'),
        decidedAt: isoDate.nullable(),
        winner: z.number().int().nullable().describe('Índice da variante vencedora (0 = A); null durante o teste.'),
        reason: z.string().describe('Por que a variante venceu (ou o que o teste aguarda), em português.'),
        held: counter.describe('Destinatários que aguardam o vencedor.'),
        variants: z.array(
          z.object({
            index: z.number().int(),
            letter: z.string(),
            subject: z.string(),
            fromName: z.string().nullable(),
            ownContent: z.boolean(),
            recipients: counter.describe('Destinatários do teste que receberam esta variante.'),
            delivered: counter,
            uniqueOpens: counter.describe('Aberturas únicas humanas (automáticas não contam).'),
            uniqueClicks: counter,
            openRate: z.number(),
            clickRate: z.number(),
          }),
        ),
      })
      .nullable()
      .describe('O teste A/B da campanha (null quando não é um teste A/B).'),
    series: z.array(z.object({ hour: z.string() }).loose()),
  })
  .meta({ id: 'CampaignReport' });

export const balanceSchema = z
  .object({
    balanceMillis: z.number().int().describe('Saldo em milésimos de real (1000 = R$ 1,00).'),
    priceMillis: z.number().int().describe('Preço de um e-mail em milésimos de real.'),
    emailsPaid: z.number().int().describe('Quantos e-mails o saldo paga.'),
    formatted: z.string().describe('O saldo em reais, por extenso (ex.: "R$ 12,50").'),
  })
  .meta({ id: 'Balance' });

export const statementSchema = z
  .object({
    entries: z.array(
      z.object({
        id: z.string(),
        seq: z.number().int(),
        kind: z.enum(['topup', 'reservation', 'send', 'release', 'refund', 'adjustment']),
        amountMillis: z.number().int(),
        balanceAfterMillis: z.number().int(),
        description: z.string(),
        campaignId: z.string().nullable(),
        topupId: z.string().nullable(),
        emailCount: z.number().int().nullable(),
        priceMillis: z.number().int().nullable(),
        createdAt: isoDate,
      }),
    ),
    nextCursor: z.number().int().nullable(),
  })
  .meta({ id: 'Statement' });

const reasons = z.enum(SUPPRESSION_REASON_VALUES);
export const suppressionSummarySchema = z
  .object({
    total: counter,
    byReason: z.object({
      erased: counter,
      unsubscribed: counter,
      bounced: counter,
      complained: counter,
      manual: counter,
    }),
  })
  .meta({ id: 'SuppressionSummary' });
export const suppressionAddedSchema = z
  .object({ added: counter, alreadySuppressed: counter, invalid: z.array(z.string()), invalidCount: counter })
  .meta({ id: 'SuppressionsAdded' });
export const suppressionLookupSchema = z
  .object({
    email: z.string(),
    suppressed: z.boolean(),
    reason: reasons.nullable().describe('O motivo mais forte (um endereço pode ter vários).'),
    reasons: z.array(reasons).describe('Todos os motivos do endereço, do mais forte ao mais fraco.'),
    streams: z
      .array(z.enum(MESSAGE_STREAMS))
      .describe('Os fluxos que a supressão cobre: um descadastro só `marketing`; os outros motivos, todos.'),
    createdAt: isoDate.nullable(),
  })
  .meta({ id: 'SuppressionLookup' });
