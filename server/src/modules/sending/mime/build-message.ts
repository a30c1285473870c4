/**
 * Fast RFC 5322 assembly for campaign mail.
 *
 * Everything a campaign's messages share is built once into a `MessageFrame` (From with an RFC 2047 display
 * name, Reply-To, List-Id, Feedback-ID, MIME-Version, the multipart boundary and the part headers). Each message
 * then only formats its own header strings (To, Subject, Date, Message-ID, List-Unsubscribe) and encodes its two
 * bodies straight into one scratch buffer, which is copied out once. No MIME tree, no streams.
 *
 * Layout: multipart/alternative with text/plain then text/html, both UTF-8, quoted-printable (default) or base64,
 * CRLF line endings only (any CR, LF or CRLF in a body becomes one CRLF: encoding.ts), lines ≤ 76 characters in
 * the bodies, header lines folded near 78. The boundary starts with "=_", a sequence neither
 * quoted-printable nor base64 output can contain, so one boundary serves the whole campaign safely.
 * Dot-stuffing is left to the SMTP layer.
 */
import { randomBytes } from 'node:crypto';
import {
  canonicalText,
  currentRfc5322Date,
  encodeBase64Lines,
  encodeUnstructured,
  formatAddress,
  formatPhrase,
  formatRfc5322Date,
  qpMaxLength,
  sanitizeHeaderValue,
  writeQuotedPrintable,
} from './encoding';

/** A body part encoded straight into the message (see sending/body-program.ts): its size bound and writer. */
export interface EncodedBody {
  /** Upper bound of the bytes `write` produces. */
  readonly maxLength: number;
  /** Writes the quoted-printable body at `pos` of `out`; returns the new position. */
  write(out: Buffer, pos: number): number;
}

export type BodyEncoding = 'quoted-printable' | 'base64';

/** What every message of one campaign shares. */
export interface CampaignFrameOptions {
  fromEmail: string;
  fromName?: string | null;
  replyTo?: string | null;
  /** List-Id identifier, e.g. `c123.lists.carteiro.app` (RFC 2919); brackets are added. Null: no List-Id (transactional). */
  listId: string | null;
  /** Optional List-Id description (encoded when not ASCII). */
  listName?: string | null;
  /** Feedback-ID value (Gmail feedback loop), e.g. `c123:a45:campaign:carteiro`. */
  feedbackId: string;
  /** Right-hand side of every Message-ID. */
  messageIdDomain: string;
  bodyEncoding?: BodyEncoding;
  /** Further campaign-wide headers (e.g. `Precedence: bulk`), printable ASCII names; values are sanitised. */
  extraHeaders?: Record<string, string>;
  /** Fixed boundary (tests); by default `=_crt_<random>`. */
  boundary?: string;
  /**
   * Accept an http:// List-Unsubscribe URL (development, where PUBLIC_URL is http://localhost). RFC 8058
   * one-click needs https, so production PUBLIC_URLs are https and this stays false.
   */
  allowHttpUnsubscribe?: boolean;
}

/** The pre-built, campaign-wide parts of every message. Create once per campaign with `createMessageFrame`. */
export interface MessageFrame {
  readonly boundary: string;
  readonly bodyEncoding: BodyEncoding;
  readonly messageIdDomain: string;
  readonly allowHttpUnsubscribe: boolean;
  /** `From:` (and `Reply-To:`) lines. */
  readonly fromHeaders: string;
  /** List-Id … Content-Type, the blank line and the text part's headers. */
  readonly tailHeaders: string;
  /** Between the text and the HTML body. */
  readonly middle: string;
  /** After the HTML body. */
  readonly closing: string;
  /** List-Id … the extra headers: the headers before MIME-Version (for messages with attachments). */
  readonly listHeaders: string;
  /** `Content-Type: multipart/alternative …`, the blank line and the text part's headers. */
  readonly alternativeHeaders: string;
}

/** A file carried by the message: an attachment, or an inline image when it has a `contentId` (`cid:` in the HTML). */
export interface MimeAttachment {
  filename: string;
  /** `type/subtype`, already checked by the caller (shared/src/schemas/messages.ts). */
  contentType: string;
  content: Buffer;
  contentId?: string | null;
}

/** Per-recipient fields; `text` and `html` are the rendered bodies (preheader already in the HTML). */
export interface MessageFields {
  /** Local part of the Message-ID (the message's opaque token or id); `<messageId@messageIdDomain>`. */
  messageId: string;
  to: string;
  toName?: string | null;
  subject: string;
  /** The one-click unsubscribe URL; must be https (RFC 8058). Null: no List-Unsubscribe (transactional messages). */
  unsubscribeUrl: string | null;
  text: string;
  html: string;
  /** Defaults to now (formatted once per second). */
  date?: Date;
  /** Cc mailboxes (shown to every recipient; each address gets its own copy of the message). */
  cc?: ReadonlyArray<{ email: string; name?: string | null }>;
  /** Per-message headers the caller chose from the allow-list (shared ALLOWED_MESSAGE_HEADERS). */
  headers?: ReadonlyArray<readonly [string, string]>;
  /** Files: the message becomes multipart/mixed (and multipart/related around the bodies for inline ones). */
  attachments?: ReadonlyArray<MimeAttachment>;
}

export function createMessageFrame(options: CampaignFrameOptions): MessageFrame {
  const boundary = options.boundary ?? `=_crt_${randomBytes(12).toString('hex')}`;
  const bodyEncoding = options.bodyEncoding ?? 'quoted-printable';
  let fromHeaders = `From: ${formatAddress(options.fromEmail, options.fromName)}\r\n`;
  if (options.replyTo) fromHeaders += `Reply-To: ${formatAddress(options.replyTo, null, 'Reply-To')}\r\n`;

  let tail = '';
  if (options.listId !== null) {
    const listId = `<${sanitizeHeaderValue(options.listId).replace(/[<>\s]/g, '')}>`;
    const listName = options.listName ? sanitizeHeaderValue(options.listName) : '';
    tail += `List-Id: ${listName ? `${formatPhrase(listName)} ${listId}` : listId}\r\n`;
  }
  tail += `Feedback-ID: ${sanitizeHeaderValue(options.feedbackId)}\r\n`;
  for (const [name, value] of Object.entries(options.extraHeaders ?? {})) {
    if (!/^[!-9;-~]+$/.test(name)) throw new Error(`invalid header name: ${name}`);
    tail += `${name}: ${encodeUnstructured(name, value)}\r\n`;
  }
  const partHeaders = (type: string) =>
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: ${bodyEncoding}\r\n\r\n`;
  const listHeaders = tail;
  const alternativeHeaders = `Content-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n${partHeaders('text/plain')}`;
  tail += `MIME-Version: 1.0\r\n${alternativeHeaders}`;
  return {
    listHeaders,
    alternativeHeaders,
    boundary,
    bodyEncoding,
    messageIdDomain: sanitizeHeaderValue(options.messageIdDomain).replace(/[^A-Za-z0-9.-]/g, ''),
    allowHttpUnsubscribe: options.allowHttpUnsubscribe ?? false,
    fromHeaders,
    tailHeaders: tail,
    middle: `\r\n${partHeaders('text/html')}`,
    closing: `\r\n--${boundary}--\r\n`,
  };
}

/** The per-message header block (To … List-Unsubscribe-Post), ASCII. */
export function messageHeaders(frame: MessageFrame, fields: MessageFields): string {
  const url = fields.unsubscribeUrl;
  let own = '';
  if (fields.cc && fields.cc.length > 0) {
    own += `Cc: ${fields.cc.map((m) => formatAddress(m.email, m.name, 'Cc')).join(',\r\n ')}\r\n`;
  }
  for (const [name, value] of fields.headers ?? []) {
    if (!/^[!-9;-~]+$/.test(name)) throw new Error(`invalid header name: ${name}`);
    own += `${name}: ${encodeUnstructured(name, value)}\r\n`;
  }
  if (url !== null) {
    const scheme = url.startsWith('https://') || (frame.allowHttpUnsubscribe && url.startsWith('http://'));
    if (!scheme || !/^[\x21-\x7e]+$/.test(url) || /[<>]/.test(url) || url.length > 900) {
      throw new Error('List-Unsubscribe needs exactly one https URL of printable ASCII without angle brackets');
    }
  }
  const id = fields.messageId.replace(/[^A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.]/g, '');
  const head =
    `To: ${formatAddress(fields.to, fields.toName, 'To')}\r\n` +
    `Subject: ${encodeUnstructured('Subject', fields.subject)}\r\n` +
    `Date: ${fields.date ? formatRfc5322Date(fields.date) : currentRfc5322Date()}\r\n` +
    `Message-ID: <${id}@${frame.messageIdDomain}>\r\n${own}`;
  if (url === null) return head;
  return `${head}List-Unsubscribe: <${url}>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n`;
}

let scratch = Buffer.allocUnsafe(256 * 1024);

function ensureScratch(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  return scratch;
}

/** Builds one complete message (CRLF line endings) from the campaign frame and the recipient's fields. */
export function buildMimeMessage(frame: MessageFrame, fields: MessageFields): Buffer {
  if (fields.attachments && fields.attachments.length > 0)
    return buildWithAttachments(frame, fields, fields.attachments);
  const head = frame.fromHeaders + messageHeaders(frame, fields) + frame.tailHeaders;
  if (frame.bodyEncoding === 'base64') {
    // Text types are base64-encoded from their canonical form (RFC 2045 §6.8): CRLF line breaks.
    const text = encodeBase64Lines(Buffer.from(canonicalText(fields.text), 'utf8'));
    const html = encodeBase64Lines(Buffer.from(canonicalText(fields.html), 'utf8'));
    return Buffer.from(head + text + frame.middle + html + frame.closing, 'latin1');
  }
  const text = Buffer.from(fields.text, 'utf8');
  const html = Buffer.from(fields.html, 'utf8');
  const max =
    head.length + frame.middle.length + frame.closing.length + qpMaxLength(text.length) + qpMaxLength(html.length);
  const out = ensureScratch(max);
  let pos = out.write(head, 0, 'latin1');
  pos = writeQuotedPrintable(text, out, pos);
  pos += out.write(frame.middle, pos, 'latin1');
  pos = writeQuotedPrintable(html, out, pos);
  pos += out.write(frame.closing, pos, 'latin1');
  const message = Buffer.allocUnsafe(pos);
  out.copy(message, 0, 0, pos);
  return message;
}

/**
 * `buildMimeMessage` for bodies that encode themselves (pre-encoded static parts + per-message values): the
 * same headers and layout, quoted-printable only.
 */
export function buildMimeMessageFromParts(
  frame: MessageFrame,
  fields: Omit<MessageFields, 'text' | 'html'>,
  text: EncodedBody,
  html: EncodedBody,
): Buffer {
  if (frame.bodyEncoding !== 'quoted-printable') throw new Error('encoded bodies are quoted-printable');
  const head = frame.fromHeaders + messageHeaders(frame, fields as MessageFields) + frame.tailHeaders;
  const max = head.length + frame.middle.length + frame.closing.length + text.maxLength + html.maxLength;
  const out = ensureScratch(max);
  let pos = out.write(head, 0, 'latin1');
  pos = text.write(out, pos);
  pos += out.write(frame.middle, pos, 'latin1');
  pos = html.write(out, pos);
  pos += out.write(frame.closing, pos, 'latin1');
  const message = Buffer.allocUnsafe(pos);
  out.copy(message, 0, 0, pos);
  return message;
}

/**
 * `name="…"` / `filename="…"` on a line of its own: quoted ASCII, or RFC 2231 `filename*0*=utf-8''…` percent-encoded
 * in continuations of at most 60 characters (never a line past 78) when it is not short plain ASCII.
 */
export function fileParameter(param: 'name' | 'filename', filename: string): string {
  const clean = sanitizeHeaderValue(filename).replace(/[\\/]/g, '_');
  if (/^[\x20-\x7e]*$/.test(clean) && clean.length <= 60) return `${param}="${clean.replace(/(["\\])/g, '\\$1')}"`;
  const encoded = encodeURIComponent(clean).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  const pieces: string[] = [];
  let rest = `utf-8''${encoded}`;
  while (rest.length > 0) {
    let cut = Math.min(60, rest.length);
    // Never split a %XX escape.
    const percent = rest.lastIndexOf('%', cut - 1);
    if (cut < rest.length && percent > cut - 3) cut = percent;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return pieces.map((piece, i) => `${param}*${i}*=${piece}`).join(';\r\n ');
}

/**
 * A message with files: multipart/mixed { [multipart/related {] multipart/alternative { text, html }, inline
 * images [}], attachments }, every file base64 in 76-character lines. The nested boundaries take the frame's
 * random part behind other prefixes ("=_m", "=_r"), so none is a prefix of another and, like the frame's, none can
 * occur in base64 or quoted-printable output. The bodies are encoded exactly as without files.
 */
function buildWithAttachments(
  frame: MessageFrame,
  fields: MessageFields,
  attachments: ReadonlyArray<MimeAttachment>,
): Buffer {
  const random = frame.boundary.slice(2);
  const mixed = `=_m${random}`;
  const related = `=_r${random}`;
  const inline = attachments.filter((a) => a.contentId);
  const files = attachments.filter((a) => !a.contentId);
  const filePart = (a: MimeAttachment, boundary: string) => {
    const type = sanitizeHeaderValue(a.contentType).replace(/[^A-Za-z0-9!#$&^_.+/-]/g, '');
    let part = `--${boundary}\r\nContent-Type: ${type};\r\n ${fileParameter('name', a.filename)}\r\n`;
    part += 'Content-Transfer-Encoding: base64\r\n';
    if (a.contentId) {
      const cid = sanitizeHeaderValue(a.contentId).replace(/[<>\s]/g, '');
      part += `Content-ID: <${cid}>\r\nContent-Disposition: inline;\r\n ${fileParameter('filename', a.filename)}\r\n`;
    } else {
      part += `Content-Disposition: attachment;\r\n ${fileParameter('filename', a.filename)}\r\n`;
    }
    return `${part}\r\n${encodeBase64Lines(a.content)}\r\n`;
  };
  let head = `${frame.fromHeaders}${messageHeaders(frame, fields)}${frame.listHeaders}MIME-Version: 1.0\r\n`;
  head += `Content-Type: multipart/mixed; boundary="${mixed}"\r\n\r\n--${mixed}\r\n`;
  if (inline.length > 0) head += `Content-Type: multipart/related; boundary="${related}"\r\n\r\n--${related}\r\n`;
  head += frame.alternativeHeaders;
  let tail = '';
  if (inline.length > 0) tail += `${inline.map((a) => filePart(a, related)).join('')}--${related}--\r\n`;
  tail += `${files.map((a) => filePart(a, mixed)).join('')}--${mixed}--\r\n`;
  let text: string;
  let html: string;
  if (frame.bodyEncoding === 'base64') {
    text = encodeBase64Lines(Buffer.from(canonicalText(fields.text), 'utf8'));
    html = encodeBase64Lines(Buffer.from(canonicalText(fields.html), 'utf8'));
  } else {
    const encode = (body: string) => {
      const input = Buffer.from(body, 'utf8');
      const out = Buffer.allocUnsafe(qpMaxLength(input.length));
      return out.toString('latin1', 0, writeQuotedPrintable(input, out, 0));
    };
    text = encode(fields.text);
    html = encode(fields.html);
  }
  return Buffer.from(head + text + frame.middle + html + frame.closing + tail, 'latin1');
}
