import {
  MESSAGE_METADATA_KEY_MAX,
  MESSAGE_METADATA_MAX,
  MESSAGE_METADATA_VALUE_MAX,
  normaliseEmail,
  TEMPLATE_HTML_MAX_CHARS,
  type TransactionalMessageRequest,
  transactionalMessageRequestSchema,
} from '@carteiro/shared';

/**
 * The usual single send (`POST /api/v1/messages`: to, from, subject/html/text or templateId, data, tags, metadata,
 * the tracking flags) checked without zod — zod's parse of it was ~8 % of a call's CPU. It returns exactly what
 * `transactionalMessageRequestSchema` returns for the same body (same values, same keys in the same order) when it
 * is certain the schema accepts the body, and undefined otherwise: then the schema itself parses it, so every
 * error, and every body with cc, bcc, headers, attachments or sendAt, is the schema's own. The schema stays the
 * one definition; a test compares the two over valid and invalid bodies (message-request-fast.test.ts).
 */
export function fastMessageRequest(body: unknown): TransactionalMessageRequest | undefined {
  if (!isJsonObject(body)) return undefined;
  for (const key in body) if (!FAST_KEYS.has(key)) return undefined;
  const to = mailbox(body.to);
  const from = mailbox(body.from);
  if (!to || !from) return undefined;
  // Built in the schema's key order (zod's output order), each optional key only when present.
  const out: Record<string, unknown> = { to, from };
  if ('replyTo' in body) {
    const replyTo = email(body.replyTo);
    if (!replyTo) return undefined;
    out.replyTo = replyTo;
  }
  if ('templateId' in body) {
    const parsed = TEMPLATE_ID.safeParse(body.templateId);
    if (!parsed.success) return undefined;
    out.templateId = parsed.data;
  }
  if ('subject' in body) {
    if (typeof body.subject !== 'string') return undefined;
    const subject = body.subject.trim();
    if (subject.length < 1 || subject.length > 500) return undefined;
    out.subject = subject;
  }
  for (const key of ['html', 'text'] as const) {
    if (!(key in body)) continue;
    const value = body[key];
    if (typeof value !== 'string' || value.length > TEMPLATE_HTML_MAX_CHARS) return undefined;
    out[key] = value;
  }
  if ('data' in body) {
    if (!isJsonObject(body.data)) return undefined;
    out.data = { ...body.data };
  }
  const category = 'category' in body ? body.category : 'transactional';
  if (category !== 'transactional' && category !== 'marketing') return undefined;
  out.category = category;
  for (const key of ['trackOpens', 'trackClicks'] as const) {
    const value = key in body ? body[key] : true;
    if (typeof value !== 'boolean') return undefined;
    out[key] = value;
  }
  if ('tags' in body) {
    const tags = body.tags;
    if (!Array.isArray(tags) || tags.length > 10) return undefined;
    const trimmed: string[] = [];
    for (const tag of tags) {
      if (typeof tag !== 'string') return undefined;
      const value = tag.trim();
      if (value.length < 1 || value.length > 50) return undefined;
      trimmed.push(value);
    }
    out.tags = trimmed;
  }
  if ('metadata' in body) {
    const metadata = body.metadata;
    if (!isJsonObject(metadata)) return undefined;
    const keys = Object.keys(metadata);
    if (keys.length > MESSAGE_METADATA_MAX) return undefined;
    for (const key of keys) {
      const value = metadata[key];
      if (!METADATA_KEY.test(key) || key.length > MESSAGE_METADATA_KEY_MAX) return undefined;
      if (typeof value !== 'string' || value.length > MESSAGE_METADATA_VALUE_MAX) return undefined;
    }
    out.metadata = { ...metadata };
  }
  // The message's own rule (shared checkMessage) for a message without copies or files: a subject and a body,
  // unless it comes from a template.
  if (!out.templateId && (!out.subject || (!out.html && !out.text))) return undefined;
  return out as TransactionalMessageRequest;
}

/** The fields this path checks; a body with any other key (cc, bcc, headers, attachments, sendAt…) goes to zod. */
const FAST_KEYS = new Set([
  'to',
  'from',
  'replyTo',
  'templateId',
  'subject',
  'html',
  'text',
  'data',
  'category',
  'trackOpens',
  'trackClicks',
  'tags',
  'metadata',
]);

/** The schema's own `templateId` field (a UUID check): only run when the body has one. */
const TEMPLATE_ID = transactionalMessageRequestSchema.shape.templateId;
const METADATA_KEY = /^[A-Za-z0-9_.-]+$/;

/**
 * An object as JSON.parse makes it, and as zod takes it for an object or a record: Object's prototype, no own
 * `__proto__` or `constructor` key (zod treats those specially: the schema decides).
 */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, '__proto__') &&
    !Object.hasOwn(value, 'constructor')
  );
}

/** The schema's `email`: a string, trimmed, normalised (shared normaliseEmail). */
function email(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return normaliseEmail(value.trim()) ?? undefined;
}

/** The schema's `mailbox`: { email, name? }, name trimmed and at most 200 characters. */
function mailbox(value: unknown): { email: string; name?: string } | undefined {
  if (!isJsonObject(value)) return undefined;
  for (const key in value) if (key !== 'email' && key !== 'name') return undefined;
  const address = email(value.email);
  if (!address) return undefined;
  if (!('name' in value)) return { email: address };
  if (typeof value.name !== 'string') return undefined;
  const name = value.name.trim();
  return name.length > 200 ? undefined : { email: address, name };
}
