import { z } from 'zod';
import { normaliseEmail } from '../email';
import { validationText } from '../validation-texts';
import { SUPPRESSION_REASON_VALUES } from './audience';
import { pageQueryFields } from './page';
import { TEMPLATE_HTML_MAX_CHARS } from './template';

/**
 * Transactional messages (public API `POST /api/v1/messages` and its batch form): one message to one recipient,
 * from a library template with merge data, or from a subject and an HTML and/or text body. Rendered, tracked,
 * signed, suppression-checked and charged like a campaign message.
 */

export const TRANSACTIONAL_BATCH_MAX = 500;

const email = z
  .string({ error: validationText('emailRequired') })
  .trim()
  .transform((value, ctx) => {
    const normalised = normaliseEmail(value);
    if (!normalised) {
      ctx.addIssue({ code: 'custom', message: validationText('emailInvalid') });
      return z.NEVER;
    }
    return normalised;
  });

const mailbox = z.strictObject({
  email,
  name: z.string().trim().max(200, validationText('nameTooLong')).optional(),
});

/** Cc and Bcc addresses per message (each): every address gets its own copy, charged as one e-mail. */
export const MESSAGE_COPIES_MAX = 10;
/** Files per message. */
export const MESSAGE_ATTACHMENTS_MAX = 10;
/** The decoded size of all the files of one message together (10 MB, as Postmark and Resend take). */
export const MESSAGE_ATTACHMENTS_MAX_BYTES = 10 * 1024 * 1024;
/** The JSON body of POST /messages and /messages/batch: room for 10 MB of files in base64 (4/3) and the rest. */
export const MESSAGES_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
/** How far ahead a transactional message may be scheduled (`sendAt`). */
export const SEND_AT_MAX_DAYS = 30;

/** `sendAt`: an instant with its offset (or Z), in the future and at most SEND_AT_MAX_DAYS ahead. */
export const sendAtSchema = z.iso
  .datetime({
    offset: true,
    error: validationText('sendAtFormat'),
  })
  .superRefine((value, ctx) => {
    const at = Date.parse(value);
    const now = Date.now();
    if (at <= now) ctx.addIssue({ code: 'custom', message: validationText('sendAtPast') });
    else if (at > now + SEND_AT_MAX_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', message: validationText('sendAtTooFar', { days: SEND_AT_MAX_DAYS }) });
  })
  .describe(
    `Programa o envio: a mensagem é aceita agora (validada, renderizada e cobrada), com situação \`scheduled\`, e sai a partir deste instante (ISO 8601 com fuso; no futuro, até ${SEND_AT_MAX_DAYS} dias). Cancele com \`POST /messages/{id}/cancel\` enquanto estiver programada: o valor volta ao saldo.`,
  );

/** Custom headers per message and the longest value. */
export const MESSAGE_HEADERS_MAX = 20;
export const MESSAGE_HEADER_VALUE_MAX = 900;
/** `metadata` pairs per message, the longest key and value. */
export const MESSAGE_METADATA_MAX = 20;
export const MESSAGE_METADATA_KEY_MAX = 40;
export const MESSAGE_METADATA_VALUE_MAX = 500;

/**
 * Extensions refused in attachments (executables and scripts), the list mailbox providers block anyway: a message
 * carrying one would be rejected or binned by Gmail and Outlook, and would teach filters to distrust the sender.
 */
export const BLOCKED_ATTACHMENT_EXTENSIONS = [
  'ade',
  'adp',
  'apk',
  'app',
  'bat',
  'bin',
  'cab',
  'chm',
  'cmd',
  'com',
  'cpl',
  'dll',
  'dmg',
  'exe',
  'hta',
  'inf',
  'ins',
  'iso',
  'isp',
  'jar',
  'js',
  'jse',
  'lib',
  'lnk',
  'mde',
  'msc',
  'msi',
  'msp',
  'mst',
  'nsh',
  'pif',
  'ps1',
  'reg',
  'scr',
  'sct',
  'shb',
  'shs',
  'sys',
  'vb',
  'vbe',
  'vbs',
  'vxd',
  'wsc',
  'wsf',
  'wsh',
] as const;

/** contentType when the caller gives none, by extension; anything else is application/octet-stream. */
const TYPE_BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  xml: 'application/xml',
  zip: 'application/zip',
  json: 'application/json',
  csv: 'text/csv',
  txt: 'text/plain',
  htm: 'text/html',
  html: 'text/html',
  ics: 'text/calendar',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ofx: 'application/x-ofx',
};

const extensionOf = (filename: string) => /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';

/** Decoded size of a base64 text (no whitespace). */
export function base64DecodedBytes(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - padding;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: controls are what this refuses
const CONTROLS = /[\u0000-\u001f\u007f]/;

const attachmentFilename = z
  .string({ error: validationText('filenameRequired') })
  .trim()
  .min(1, validationText('filenameRequired'))
  .max(150, validationText('filenameTooLong'))
  .refine((name) => !CONTROLS.test(name) && !/[\\/]/.test(name), validationText('filenameChars'))
  .refine(
    (name) => !(BLOCKED_ATTACHMENT_EXTENSIONS as readonly string[]).includes(extensionOf(name)),
    validationText('fileTypeForbidden'),
  );

/** The file's bytes in base64 (standard alphabet; line breaks are ignored). */
const attachmentContent = z
  .string({ error: validationText('contentRequired') })
  .transform((value) => value.replace(/\s+/g, ''))
  .refine((value) => value.length > 0, validationText('fileEmpty'))
  .refine((value) => value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value), validationText('contentInvalid'));

const attachmentContentType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/, validationText('contentTypeInvalid'));

/** Makes the file an inline image: the HTML shows it with `<img src="cid:<contentId>">`. */
const attachmentContentId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._@-]{1,100}$/, validationText('contentIdInvalid'));

/** The type a file is sent with when the caller gives none: by its extension, else application/octet-stream. */
export const attachmentTypeOf = (filename: string, given?: string) =>
  given ?? TYPE_BY_EXTENSION[extensionOf(filename)] ?? 'application/octet-stream';

/** One file of a message with its bytes: what the engine stores and builds the message with. */
export const messageAttachmentSchema = z
  .strictObject({
    filename: attachmentFilename,
    content: attachmentContent,
    contentType: attachmentContentType.optional(),
    contentId: attachmentContentId.optional(),
  })
  .transform((value) => ({
    ...value,
    contentType: attachmentTypeOf(value.filename, value.contentType),
    size: base64DecodedBytes(value.content),
  }));
export type MessageAttachmentInput = z.infer<typeof messageAttachmentSchema>;

/** Days an uploaded file (`POST /api/v1/files`) can be referenced by `fileId`, counted from its upload. */
export const MESSAGE_FILE_RETENTION_DAYS = 30;

/**
 * `POST /api/v1/files`: one file uploaded once and referenced by `fileId` in many messages. The same name, type
 * and size rules as a file sent in a message: at most the 10 MB a message may carry.
 */
export const messageFileUploadSchema = z
  .strictObject({
    filename: attachmentFilename,
    content: attachmentContent,
    contentType: attachmentContentType.optional(),
  })
  .transform((value) => ({
    ...value,
    contentType: attachmentTypeOf(value.filename, value.contentType),
    size: base64DecodedBytes(value.content),
  }))
  .refine((value) => value.size <= MESSAGE_ATTACHMENTS_MAX_BYTES, {
    path: ['content'],
    message: validationText('fileTooLarge'),
  });
export type MessageFileUploadInput = z.infer<typeof messageFileUploadSchema>;

/** An uploaded file as the API answers it (never its bytes). */
export const messageFileSchema = z
  .object({
    id: z.string().describe('Use em `attachments[].fileId`.'),
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int().describe('Bytes.'),
    sha256: z.string().describe('O hash dos bytes: o mesmo arquivo enviado de novo devolve o mesmo id.'),
    createdAt: z.string(),
    expiresAt: z
      .string()
      .describe(
        `Até quando o arquivo pode ser usado (${MESSAGE_FILE_RETENTION_DAYS} dias depois do envio); depois, é apagado.`,
      ),
  })
  .meta({ id: 'MessageFile' });
export type MessageFile = z.infer<typeof messageFileSchema>;

/** A file of a message by reference: an uploaded file's id, with its name and type unless given here. */
export interface MessageFileReference {
  fileId: string;
  filename?: string | undefined;
  contentType?: string | undefined;
  contentId?: string | undefined;
}

/**
 * A file of a message as the API takes it: its bytes in base64 (`content`, with `filename`) or an uploaded file
 * (`fileId`; `filename` and `contentType` default to the upload's). Exactly one of the two.
 */
export const messageAttachmentRequestSchema = z
  .strictObject({
    filename: attachmentFilename.optional(),
    content: attachmentContent.optional(),
    fileId: z
      .uuid(validationText('fileIdInvalid'))
      .optional()
      .describe(
        `Um arquivo enviado antes por \`POST /api/v1/files\` (válido por ${MESSAGE_FILE_RETENTION_DAYS} dias).`,
      ),
    contentType: attachmentContentType.optional(),
    contentId: attachmentContentId.optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.content === undefined) === (value.fileId === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['content'],
        message: validationText('contentOrFileId'),
      });
    } else if (value.content !== undefined && value.filename === undefined) {
      ctx.addIssue({ code: 'custom', path: ['filename'], message: validationText('filenameRequired') });
    }
  })
  .transform((value): MessageAttachmentInput | MessageFileReference => {
    if (value.fileId !== undefined) {
      const { content: _content, ...reference } = value;
      return { ...reference, fileId: value.fileId };
    }
    const filename = value.filename ?? '';
    const content = value.content ?? '';
    return {
      filename,
      content,
      contentType: attachmentTypeOf(filename, value.contentType),
      ...(value.contentId !== undefined ? { contentId: value.contentId } : {}),
      size: base64DecodedBytes(content),
    };
  });
export type MessageAttachmentRequest = z.infer<typeof messageAttachmentRequestSchema>;

export const isFileReference = (a: MessageAttachmentRequest): a is MessageFileReference => 'fileId' in a;

/**
 * Headers a message may carry besides those the platform writes: `X-…` headers (not the platform's own
 * `X-Carteiro-…`), and the threading headers `In-Reply-To` and `References`. Never From, Sender, To, Cc, Subject,
 * Date, Message-ID, DKIM-Signature, List-*, Feedback-ID, Precedence, MIME or Content-* headers: those decide who the
 * message is from, how it is authenticated and how the recipient unsubscribes.
 */
export function isAllowedMessageHeader(name: string): boolean {
  if (/^(in-reply-to|references)$/i.test(name)) return true;
  return /^X-[A-Za-z0-9][A-Za-z0-9-]{0,60}$/i.test(name) && !/^X-Carteiro-/i.test(name);
}

const headersSchema = z
  .record(z.string(), z.string({ error: validationText('headerValueText') }))
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MESSAGE_HEADERS_MAX) {
      ctx.addIssue({ code: 'custom', message: validationText('headersMax', { max: MESSAGE_HEADERS_MAX }) });
    }
    const seen = new Set<string>();
    for (const name of names) {
      const value = headers[name] as string;
      if (!isAllowedMessageHeader(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: validationText('headerNotAllowed', { name }),
        });
      } else if (seen.has(name.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: [name], message: validationText('headerRepeated', { name }) });
      } else if (CONTROLS.test(value)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: validationText('headerValueChars'),
        });
      } else if (value.trim().length === 0 || value.length > MESSAGE_HEADER_VALUE_MAX) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: validationText('headerValueLength', { max: MESSAGE_HEADER_VALUE_MAX }),
        });
      }
      seen.add(name.toLowerCase());
    }
  });

const metadataSchema = z
  .record(
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, validationText('metadataKeyInvalid'))
      .max(MESSAGE_METADATA_KEY_MAX, validationText('metadataKeyTooLong', { max: MESSAGE_METADATA_KEY_MAX })),
    z
      .string({ error: validationText('metadataValueText') })
      .max(MESSAGE_METADATA_VALUE_MAX, validationText('metadataValueTooLong', { max: MESSAGE_METADATA_VALUE_MAX })),
  )
  .refine(
    (value) => Object.keys(value).length <= MESSAGE_METADATA_MAX,
    validationText('metadataMax', { max: MESSAGE_METADATA_MAX }),
  );

/**
 * The fields of a message, with its files as `attachment` takes them: the API's form (bytes or an uploaded file's
 * id) or the engine's (bytes only, once every `fileId` is read — message-files).
 */
const messageSchemaWith = <A extends z.ZodType<MessageAttachmentRequest>>(attachment: A) =>
  z
    .strictObject({
      to: mailbox,
      /** A verified sender address or an address at a verified domain of the account. */
      from: mailbox,
      replyTo: email.optional(),
      /** A library template of the account; its subject is used unless `subject` is given. */
      templateId: z.uuid(validationText('templateInvalid')).optional(),
      subject: z
        .string()
        .trim()
        .min(1, validationText('subjectRequired'))
        .max(500, validationText('subjectTooLong'))
        .optional(),
      html: z.string().max(TEMPLATE_HTML_MAX_CHARS, validationText('htmlTooLarge')).optional(),
      text: z.string().max(TEMPLATE_HTML_MAX_CHARS, validationText('textTooLarge')).optional(),
      /** Per-message values: `{{ dados.<chave> }}` (a stored template's declared variables, ADR 0035) and `contato`. */
      data: z
        .record(z.string(), z.unknown())
        .optional()
        .describe(
          'Os dados desta mensagem: `{{ dados.<chave> }}` no assunto e no corpo (textos, números, listas e objetos). ' +
            'Com `templateId`, `data` traz cada variável que o modelo declara em `variables` (faltou uma: 400 ' +
            '`validation_failed` com `data.<chave>`; uma chave não declarada: 400 `unknown_fields`), e pode trazer ' +
            '`contato` (campos do destinatário, `{{ contato.<campo> }}`). Exemplo: o modelo declara `["pedido", "itens"]` ' +
            'e usa `{{ dados.pedido }}` e `{% for item in dados.itens %}{{ item.nome }}{% endfor %}`; o envio manda ' +
            '`"data": { "pedido": "1042", "itens": [{ "nome": "Café 500 g" }] }`. Sem modelo, qualquer chave vale.',
        ),
      /** Marketing messages carry List-Unsubscribe and must contain the unsubscribe link; transactional ones not. */
      category: z.enum(['transactional', 'marketing']).default('transactional'),
      trackOpens: z.boolean().default(true),
      trackClicks: z.boolean().default(true),
      tags: z
        .array(z.string().trim().min(1).max(50, validationText('tagTooLong')))
        .max(10, validationText('tagsMax'))
        .optional(),
      /** Shown in the Cc header; each gets its own copy (own id, own suppression check, charged as one e-mail). */
      cc: z
        .array(mailbox)
        .max(MESSAGE_COPIES_MAX, validationText('ccMax', { max: MESSAGE_COPIES_MAX }))
        .optional(),
      /** Not shown to anyone; each gets its own copy like cc. */
      bcc: z
        .array(mailbox)
        .max(MESSAGE_COPIES_MAX, validationText('bccMax', { max: MESSAGE_COPIES_MAX }))
        .optional(),
      headers: headersSchema.optional(),
      /** Your own key/value pairs, echoed in the lookup and in every webhook of the message. */
      metadata: metadataSchema.optional(),
      sendAt: sendAtSchema.optional(),
      attachments: z
        .array(attachment)
        .max(MESSAGE_ATTACHMENTS_MAX, validationText('attachmentsMax', { max: MESSAGE_ATTACHMENTS_MAX }))
        .optional(),
    })
    .superRefine((value, ctx) => checkMessage(value, ctx));

function checkMessage(value: MessageShape, ctx: z.RefinementCtx): void {
  const addresses = [value.to, ...(value.cc ?? []), ...(value.bcc ?? [])].map((m) => m.email);
  const paths = [['to'], ...(value.cc ?? []).map((_, i) => ['cc', i]), ...(value.bcc ?? []).map((_, i) => ['bcc', i])];
  for (const [i, address] of addresses.entries()) {
    if (addresses.indexOf(address) !== i) {
      ctx.addIssue({
        code: 'custom',
        path: [...(paths[i] ?? []), 'email'],
        message: validationText('addressRepeated', { address }),
      });
    }
  }
  const files = value.attachments ?? [];
  // Files by `fileId` are counted when they are read (message-files), with the same message.
  const bytes = files.reduce((sum, a) => sum + ('size' in a ? a.size : 0), 0);
  if (bytes > MESSAGE_ATTACHMENTS_MAX_BYTES) {
    ctx.addIssue({
      code: 'custom',
      path: ['attachments'],
      message: validationText('attachmentsTooLarge'),
    });
  }
  const ids = files.map((a) => a.contentId).filter((id) => id !== undefined);
  for (const [i, id] of ids.entries()) {
    if (ids.indexOf(id) !== i)
      ctx.addIssue({ code: 'custom', path: ['attachments'], message: validationText('contentIdRepeated', { id }) });
  }
  if (value.templateId) return;
  if (!value.subject) ctx.addIssue({ code: 'custom', path: ['subject'], message: validationText('subjectOrTemplate') });
  if (!value.html && !value.text)
    ctx.addIssue({ code: 'custom', path: ['html'], message: validationText('bodyOrTemplate') });
}

/** What checkMessage reads of a message, whichever form its files take. */
interface MessageShape {
  to: { email: string };
  cc?: { email: string }[] | undefined;
  bcc?: { email: string }[] | undefined;
  attachments?: MessageAttachmentRequest[] | undefined;
  templateId?: string | undefined;
  subject?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
}

/** A message with every file's bytes in it (the form of internal callers: automations, tests). */
export const transactionalMessageSchema = messageSchemaWith(messageAttachmentSchema);

/** A message as `POST /api/v1/messages` takes it: each file by its bytes or by an uploaded file's `fileId`. */
export const transactionalMessageRequestSchema = messageSchemaWith(messageAttachmentRequestSchema);
export type TransactionalMessageRequest = z.infer<typeof transactionalMessageRequestSchema>;

/**
 * An uploaded file a message refers to, once read and checked (message-files): its name, type and size are known;
 * its bytes stay in the upload and the engine reads them from there when it builds the message.
 */
export interface StoredFileAttachment {
  fileId: string;
  filename: string;
  contentType: string;
  contentId?: string | undefined;
  size: number;
}

/** What the transactional send takes: a message whose files are bytes or checked uploaded files. */
export type TransactionalMessageInput = Omit<TransactionalMessageRequest, 'attachments'> & {
  attachments?: (MessageAttachmentInput | StoredFileAttachment)[] | undefined;
};

export const transactionalBatchSchema = z
  .strictObject({
    messages: z
      .array(transactionalMessageRequestSchema)
      .min(1, validationText('messagesRequired'))
      .max(TRANSACTIONAL_BATCH_MAX, validationText('messagesMax', { max: TRANSACTIONAL_BATCH_MAX })),
    /** One time for the whole batch: its messages are stored and charged together, and go together. */
    sendAt: sendAtSchema.optional(),
  })
  .superRefine((value, ctx) => {
    for (const [i, message] of value.messages.entries()) {
      if (message.sendAt !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', i, 'sendAt'],
          message: validationText('batchSendAt'),
        });
      }
    }
  });
export type TransactionalBatchInput = z.infer<typeof transactionalBatchSchema>;

/** One copy of a message for a cc or bcc address: its own id, status and cost. */
export const transactionalCopyResultSchema = z.object({
  id: z.string(),
  to: z.string(),
  kind: z.enum(['cc', 'bcc']),
  status: z.enum(['queued', 'scheduled', 'sent', 'suppressed']),
  costMillis: z.number().int(),
  suppressionReason: z.enum(SUPPRESSION_REASON_VALUES).optional(),
});

/** One accepted message: its id, its stream, what it cost (millis of a real) and, when suppressed, why. */
export const transactionalMessageResultSchema = z.object({
  id: z.string(),
  to: z.string(),
  status: z
    .enum(['queued', 'scheduled', 'sent', 'suppressed'])
    .describe('`scheduled`: aceita com `sendAt`, sai a partir de então (cancelável até lá).'),
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
  copies: z
    .array(transactionalCopyResultSchema)
    .optional()
    .describe(
      'Só quando a mensagem tem `cc` ou `bcc`: uma cópia por endereço, cada uma com id, status e custo próprios (um e-mail cada). `costMillis` da mensagem é só o do destinatário `to`; o total da resposta soma tudo.',
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

/**
 * Where a message is (the lookup): `queued` (waiting for its first attempt), `deferred` (a 4xx, another attempt is
 * scheduled), `delivered` (the receiving server accepted it), `bounced` (refused by the receiving server, at once
 * or by a later bounce report), `failed` (not sent for another reason, refunded), `suppressed` (not sent nor
 * charged: the address is suppressed in the message's stream), `scheduled` (accepted with `sendAt`, waiting for it),
 * `cancelled` (a scheduled message cancelled before it went, refunded).
 */
export const MESSAGE_LOOKUP_STATUSES = [
  'queued',
  'scheduled',
  'deferred',
  'delivered',
  'bounced',
  'failed',
  'suppressed',
  'cancelled',
] as const;
export type MessageLookupStatus = (typeof MESSAGE_LOOKUP_STATUSES)[number];

export const MESSAGE_TIMELINE_EVENTS = [
  'queued',
  'scheduled',
  'cancelled',
  'delivered',
  'bounced',
  'failed',
  'suppressed',
  'opened',
  'clicked',
  'complained',
  'unsubscribed',
] as const;

const isoDate = (label: string) =>
  z
    .string()
    .trim()
    .refine((value) => !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}/.test(value), {
      message: validationText('isoDate', { label }),
    });

/** `GET /api/v1/messages`: newest first, cursor paginated; filters combine (AND). */
export const messageListQuerySchema = z.strictObject({
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, validationText('cursorInvalid'))
    .optional(),
  limit: pageQueryFields.limit,
  recipient: email.optional(),
  status: z
    .string()
    .transform((value) => value.split(',').map((s) => s.trim()))
    .pipe(
      z.array(
        z.enum(MESSAGE_LOOKUP_STATUSES, {
          error: validationText('statusInvalidUse', {
            allowed: MESSAGE_LOOKUP_STATUSES.map((v) => `\`${v}\``).join(', '),
          }),
        }),
      ),
    )
    .optional(),
  tag: z.string().trim().min(1, validationText('tagRequired')).max(50, validationText('tagTooLong')).optional(),
  stream: z.enum(['transactional', 'marketing'], { error: validationText('streamInvalid') }).optional(),
  /** From this instant on (inclusive); a date alone is midnight UTC. */
  since: isoDate('since').optional(),
  /** Before this instant (exclusive). */
  until: isoDate('until').optional(),
});
export type MessageListQuery = z.infer<typeof messageListQuerySchema>;

export const messageTimelineEventSchema = z.object({
  type: z.enum(MESSAGE_TIMELINE_EVENTS),
  at: z.iso
    .datetime()
    .nullable()
    .describe('Quando aconteceu; null só para uma recusa do servidor de destino no envio (a hora não é registrada).'),
  detail: z.string().nullable().describe('A resposta do servidor, o tipo de devolução, o motivo da supressão…'),
  url: z.string().optional().describe('Só em `clicked`: o link clicado.'),
  machine: z
    .boolean()
    .optional()
    .describe('Só em `opened` e `clicked`: true para pré-carregamentos (Apple MPP, antivírus), fora das taxas.'),
});

export const messageSummarySchema = z.object({
  id: z.string(),
  status: z.enum(MESSAGE_LOOKUP_STATUSES),
  stream: z.enum(['transactional', 'marketing']),
  recipientKind: z.enum(['to', 'cc', 'bcc']).describe('`to`, ou uma cópia `cc`/`bcc` da mensagem `copyOf`.'),
  copyOf: z.string().nullable(),
  to: z.string().describe('O endereço que recebe esta mensagem (o da cópia, para cc/bcc).'),
  from: z.string(),
  subject: z.string(),
  tags: z.array(z.string()),
  metadata: z.record(z.string(), z.string()),
  costMillis: z.number().int().describe('O que esta mensagem custou (milésimos de real); 0 se suprimida ou estornada.'),
  attachments: z.number().int().describe('Quantos arquivos a mensagem leva.'),
  attempts: z.number().int(),
  sandbox: z
    .boolean()
    .describe('Enviada com uma chave de teste (`ct_test_…`): aceita e renderizada, mas nunca entregue nem cobrada.'),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
  sendAt: z.iso.datetime().nullable().describe('O envio programado (`sendAt`), se houver.'),
  nextAttemptAt: z.iso.datetime().nullable().describe('Só em `deferred`: quando será a próxima tentativa.'),
});
export type MessageSummary = z.infer<typeof messageSummarySchema>;

export const messageDetailSchema = messageSummarySchema.extend({
  events: z.array(messageTimelineEventSchema).describe('A linha do tempo, em ordem.'),
});
export type MessageDetail = z.infer<typeof messageDetailSchema>;

export const messageCollectionSchema = z.object({
  items: z.array(messageSummarySchema),
  nextCursor: z.string().nullable(),
});
