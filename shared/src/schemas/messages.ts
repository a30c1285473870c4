import { z } from 'zod';
import { normaliseEmail } from '../email';
import { SUPPRESSION_REASON_VALUES } from './audience';
import { TEMPLATE_HTML_MAX_CHARS } from './template';

/**
 * Transactional messages (public API `POST /api/v1/messages` and its batch form): one message to one recipient,
 * from a library template with merge data, or from a subject and an HTML and/or text body. Rendered, tracked,
 * signed, suppression-checked and charged like a campaign message.
 */

export const TRANSACTIONAL_BATCH_MAX = 500;

const email = z
  .string({ error: 'Informe o e-mail.' })
  .trim()
  .transform((value, ctx) => {
    const normalised = normaliseEmail(value);
    if (!normalised) {
      ctx.addIssue({ code: 'custom', message: 'E-mail inválido.' });
      return z.NEVER;
    }
    return normalised;
  });

const mailbox = z.strictObject({
  email,
  name: z.string().trim().max(200, 'Nome longo demais.').optional(),
});

export const transactionalMessageSchema = z
  .strictObject({
    to: mailbox,
    /** A verified sender address or an address at a verified domain of the account. */
    from: mailbox,
    replyTo: email.optional(),
    /** A library template of the account; its subject is used unless `subject` is given. */
    templateId: z.uuid('Modelo inválido.').optional(),
    subject: z.string().trim().min(1, 'Informe o assunto.').max(500, 'Assunto longo demais.').optional(),
    html: z.string().max(TEMPLATE_HTML_MAX_CHARS, 'HTML grande demais (máximo 1 MB).').optional(),
    text: z.string().max(TEMPLATE_HTML_MAX_CHARS, 'Texto grande demais (máximo 1 MB).').optional(),
    /** Merge values: `{{ contato.nome }}`, `{{ contato.<campo> }}` and any top-level `{{ chave }}`. */
    data: z.record(z.string(), z.unknown()).optional(),
    /** Marketing messages carry List-Unsubscribe and must contain the unsubscribe link; transactional ones not. */
    category: z.enum(['transactional', 'marketing']).default('transactional'),
    trackOpens: z.boolean().default(true),
    trackClicks: z.boolean().default(true),
    tags: z
      .array(z.string().trim().min(1).max(50, 'Etiqueta longa demais.'))
      .max(10, 'No máximo 10 etiquetas.')
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.templateId) return;
    if (!value.subject) ctx.addIssue({ code: 'custom', path: ['subject'], message: 'Informe o assunto ou um modelo.' });
    if (!value.html && !value.text)
      ctx.addIssue({ code: 'custom', path: ['html'], message: 'Informe o HTML, o texto ou um modelo.' });
  });
export type TransactionalMessageInput = z.infer<typeof transactionalMessageSchema>;

export const transactionalBatchSchema = z.strictObject({
  messages: z
    .array(transactionalMessageSchema)
    .min(1, 'Envie ao menos uma mensagem.')
    .max(TRANSACTIONAL_BATCH_MAX, `No máximo ${TRANSACTIONAL_BATCH_MAX} mensagens por chamada.`),
});
export type TransactionalBatchInput = z.infer<typeof transactionalBatchSchema>;

/** One accepted message: its id, its stream, what it cost (millis of a real) and, when suppressed, why. */
export const transactionalMessageResultSchema = z.object({
  id: z.string(),
  to: z.string(),
  status: z.enum(['queued', 'sent', 'suppressed']),
  costMillis: z.number().int(),
  stream: z
    .enum(['marketing', 'transactional'])
    .describe(
      'O fluxo da mensagem (o `category` dela). Um descadastro suprime só o fluxo de marketing; devolução permanente, reclamação de spam, exclusão a pedido do titular (LGPD) e supressão manual suprimem todos.',
    ),
  suppressionReason: z
    .enum(SUPPRESSION_REASON_VALUES)
    .optional()
    .describe(
      'Só quando `status` é `suppressed`: o motivo mais forte que cobre o fluxo — `erased`, `complained`, `bounced`, `manual` ou `unsubscribed` (este só no fluxo de marketing). A mensagem não é enviada nem cobrada.',
    ),
});
export type TransactionalMessageResult = z.infer<typeof transactionalMessageResultSchema>;

/** The answer of a send: the messages, the total charged and the balance left (millis). */
export const transactionalSendResultSchema = z.object({
  messages: z.array(transactionalMessageResultSchema),
  costMillis: z.number().int(),
  balanceMillis: z.number().int(),
});
export type TransactionalSendResult = z.infer<typeof transactionalSendResultSchema>;
