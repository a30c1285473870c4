/**
 * The byte-level encoders of the fast MIME path: quoted-printable (RFC 2045 §6.7) written straight into a
 * scratch buffer, RFC 2047 encoded-words for headers, and the RFC 5322 date.
 */

const HEX = Buffer.from('0123456789ABCDEF', 'latin1');
const EQ = 0x3d;
const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const TAB = 0x09;
/** Longest encoded line before the soft break "=" (76 characters per line in all). */
const QP_LINE = 75;

/** Upper bound of the quoted-printable size of `n` input bytes (every byte escaped, plus soft breaks). */
export function qpMaxLength(n: number): number {
  return n * 3 + Math.ceil((n * 3) / QP_LINE) * 3 + 8;
}

/**
 * Quoted-printable-encodes UTF-8 `input` into `out` at `pos`; returns the new position. Line breaks (LF or
 * CRLF) become hard CRLF breaks, lines are soft-broken at 76 characters, a space or tab before a break is
 * escaped. `out` must hold `qpMaxLength(input.length)` bytes from `pos`. Dot-stuffing is the SMTP layer's job.
 */
export function writeQuotedPrintable(input: Buffer, out: Buffer, pos: number): number {
  return writeQuotedPrintableAt(input, out, pos, 0);
}

/** The output column after the last `writeQuotedPrintableAt` call. */
export const qpState = { column: 0 };

/**
 * `writeQuotedPrintable` continuing a line that already holds `column` characters (parts of one body encoded
 * one after the other: pre-encoded static parts and per-message values). The column reached is left in
 * `qpState.column`. A space or tab at the very end of `input` is escaped (it may end a line).
 */
export function writeQuotedPrintableAt(input: Buffer, out: Buffer, pos: number, column: number): number {
  const n = input.length;
  let line = column;
  for (let i = 0; i < n; i++) {
    const b = input[i]!;
    if (b === LF || (b === CR && input[i + 1] === LF)) {
      if (b === CR) i++;
      out[pos++] = CR;
      out[pos++] = LF;
      line = 0;
      continue;
    }
    let literal = (b > SP && b < 0x7f && b !== EQ) || b === SP || b === TAB;
    if (literal && (b === SP || b === TAB)) {
      // Whitespace at the end of a line (or of the text) would be stripped in transit: escape it.
      const next = input[i + 1];
      if (next === undefined || next === LF || next === CR) literal = false;
    }
    const width = literal ? 1 : 3;
    if (line + width > QP_LINE) {
      out[pos++] = EQ;
      out[pos++] = CR;
      out[pos++] = LF;
      line = 0;
    }
    if (literal) {
      out[pos++] = b;
    } else {
      out[pos++] = EQ;
      out[pos++] = HEX[b >> 4]!;
      out[pos++] = HEX[b & 15]!;
    }
    line += width;
  }
  qpState.column = line;
  return pos;
}

/**
 * `writeQuotedPrintableAt` for a string of printable ASCII without `=` (URLs, most merge values): no UTF-8
 * Buffer in between. Characters outside that set must not be passed (see `isPlainQpAscii`).
 */
export function writeQuotedPrintableAsciiAt(input: string, out: Buffer, pos: number, column: number): number {
  const n = input.length;
  let line = column;
  for (let i = 0; i < n; i++) {
    const b = input.charCodeAt(i);
    // A space at the very end is escaped (it may end a line), as in writeQuotedPrintableAt.
    const literal = b !== SP || i + 1 < n;
    const width = literal ? 1 : 3;
    if (line + width > QP_LINE) {
      out[pos++] = EQ;
      out[pos++] = CR;
      out[pos++] = LF;
      line = 0;
    }
    if (literal) {
      out[pos++] = b;
    } else {
      out[pos++] = EQ;
      out[pos++] = HEX[b >> 4]!;
      out[pos++] = HEX[b & 15]!;
    }
    line += width;
  }
  qpState.column = line;
  return pos;
}

const PLAIN_QP_ASCII = /^[\x20-\x3c\x3e-\x7e]*$/;

/** Whether `writeQuotedPrintableAsciiAt` may encode `value` (printable ASCII, no `=`). */
export function isPlainQpAscii(value: string): boolean {
  return PLAIN_QP_ASCII.test(value);
}

/** Quoted-printable text as a string (for tests and small parts). */
export function encodeQuotedPrintable(text: string): string {
  const input = Buffer.from(text, 'utf8');
  const out = Buffer.allocUnsafe(qpMaxLength(input.length));
  return out.toString('latin1', 0, writeQuotedPrintable(input, out, 0));
}

/** Base64 with CRLF every 76 characters (the alternative body encoding). */
export function encodeBase64Lines(input: Buffer): string {
  const b64 = input.toString('base64');
  if (b64.length <= 76) return b64;
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join('\r\n');
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: CR, LF and other controls never reach a header
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]+/g;

/** Removes line breaks and control characters from a header value (no header injection through merge data). */
export function sanitizeHeaderValue(value: string): string {
  return value.replace(CONTROL, ' ').trim();
}

/** Raw UTF-8 bytes per encoded-word: 42 bytes → 56 base64 characters → a 68-character word. */
const WORD_BYTES = 42;

/**
 * RFC 2047 B-encoded words for a non-ASCII header value, split at UTF-8 character boundaries, each word at most
 * 75 characters, joined by folding whitespace. ASCII values are returned unchanged.
 */
export function encodeWords(value: string): string {
  if (PRINTABLE_ASCII.test(value)) return value;
  const bytes = Buffer.from(value, 'utf8');
  const words: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + WORD_BYTES, bytes.length);
    // Never cut a multi-byte character: back off while the next byte is a continuation byte.
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    words.push(`=?UTF-8?B?${bytes.toString('base64', start, end)}?=`);
    start = end;
  }
  return words.join('\r\n ');
}

/** Folds a printable-ASCII header value at spaces so lines stay near 78 characters (never above 998). */
export function foldAscii(nameLength: number, value: string): string {
  if (nameLength + 2 + value.length <= 78) return value;
  const parts = value.split(' ');
  let out = '';
  let lineLength = nameLength + 2;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i > 0) {
      if (lineLength + 1 + part.length > 78 && lineLength > 1) {
        out += '\r\n ';
        lineLength = 1;
      } else {
        out += ' ';
        lineLength += 1;
      }
    }
    out += part;
    lineLength += part.length;
  }
  return out;
}

/** An unstructured header value (Subject): encoded-words when not ASCII, folded otherwise. */
export function encodeUnstructured(headerName: string, value: string): string {
  const clean = sanitizeHeaderValue(value);
  if (PRINTABLE_ASCII.test(clean)) return foldAscii(headerName.length, clean);
  return encodeWords(clean);
}

const ATEXT_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/;

/** `Name <address>` with the display name as atoms, a quoted string or encoded-words (RFC 5322 §3.4, 2047). */
export function formatAddress(address: string, name?: string | null): string {
  const cleanAddress = sanitizeHeaderValue(address).replace(/[<>\s]/g, '');
  const phrase = name ? formatPhrase(name) : '';
  return phrase ? `${phrase} <${cleanAddress}>` : cleanAddress;
}

/** A display name as atoms, a quoted string or encoded-words; '' when empty. */
export function formatPhrase(name: string): string {
  const clean = sanitizeHeaderValue(name);
  if (ATEXT_PHRASE.test(clean)) return clean;
  if (PRINTABLE_ASCII.test(clean)) return `"${clean.replace(/(["\\])/g, '\\$1')}"`;
  return encodeWords(clean);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** RFC 5322 date-time in UTC: `Tue, 16 Dec 2025 13:04:05 +0000`. */
export function formatRfc5322Date(date: Date): string {
  return (
    `${DAYS[date.getUTCDay()]}, ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ` +
    `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())} +0000`
  );
}

let cachedSecond = -1;
let cachedDate = '';

/** The current RFC 5322 date, formatted at most once per second. */
export function currentRfc5322Date(nowMs: number = Date.now()): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedDate = formatRfc5322Date(new Date(second * 1000));
  }
  return cachedDate;
}
