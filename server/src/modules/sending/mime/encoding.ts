/**
 * The byte-level encoders of the fast MIME path: quoted-printable (RFC 2045 §6.7) written straight into a
 * scratch buffer, RFC 2047 encoded-words for headers, and the RFC 5322 date.
 *
 * Line breaks: one canonical form for every body (ADR 0011). CRLF, a lone LF and a lone CR each become one CRLF
 * hard break — also when a CR ends one piece and an LF starts the next (the body programs encode a body in
 * pieces; the state below carries across them). C0 controls other than TAB/CR/LF and DEL are dropped; C1
 * controls (U+0080–U+009F, Windows-1252 bytes decoded as Latin-1) become their Windows-1252 characters. So
 * whatever the template, the merge data or html-to-text gave, the wire carries only CRLF, and the string path
 * and the fast path produce the same bytes.
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
  // A C1 control (2 bytes) may become a 3-byte character, 9 encoded bytes: at most 4.5 per input byte.
  return Math.ceil(n * 4.5) + Math.ceil((n * 4.5) / QP_LINE) * 3 + 8;
}

/**
 * Where a quoted-printable body stands between two pieces: the output column, a space or tab not written yet
 * (escaped if a line break or the end follows, literal otherwise), and whether the last byte was a CR (an LF
 * right after it belongs to the same line break).
 */
export interface QpState {
  column: number;
  /** The pending SP or TAB, or -1. */
  pendingWs: number;
  afterCr: boolean;
}

export function newQpState(): QpState {
  return { column: 0, pendingWs: -1, afterCr: false };
}

/** Windows-1252 characters for the bytes 0x80–0x9F (0 where the code page defines none: dropped). */
const CP1252 = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];
/** The UTF-8 bytes of each CP1252 character above. */
const CP1252_UTF8 = CP1252.map((cp) => (cp ? Buffer.from(String.fromCodePoint(cp), 'utf8') : null));

/** Whether byte `b` (outside a multi-byte sequence) is a control character dropped from bodies. */
function isDroppedControl(b: number): boolean {
  return (b < SP && b !== TAB && b !== LF && b !== CR) || b === 0x7f;
}

/** Writes one encoded byte of width `width` (1 literal, 3 escaped), soft-breaking first when the line is full. */
function put(b: number, literal: boolean, out: Buffer, pos: number, state: QpState): number {
  const width = literal ? 1 : 3;
  if (state.column + width > QP_LINE) {
    out[pos++] = EQ;
    out[pos++] = CR;
    out[pos++] = LF;
    state.column = 0;
  }
  if (literal) {
    out[pos++] = b;
  } else {
    out[pos++] = EQ;
    out[pos++] = HEX[b >> 4]!;
    out[pos++] = HEX[b & 15]!;
  }
  state.column += width;
  return pos;
}

/** Writes the pending space or tab: literal when more text follows on its line, escaped before a break or the end. */
function flushPending(out: Buffer, pos: number, state: QpState, literal: boolean): number {
  const ws = state.pendingWs;
  if (ws < 0) return pos;
  state.pendingWs = -1;
  return put(ws, literal, out, pos, state);
}

function hardBreak(out: Buffer, pos: number, state: QpState): number {
  pos = flushPending(out, pos, state, false);
  out[pos++] = CR;
  out[pos++] = LF;
  state.column = 0;
  return pos;
}

/**
 * Quoted-printable-encodes the UTF-8 `input` into `out` at `pos`, continuing from `state` (updated); returns the
 * new position. `out` must hold `qpMaxLength(input.length)` bytes from `pos` (plus 3 for a pending byte). Call
 * `qpFinish` after the last piece. Dot-stuffing is the SMTP layer's job.
 */
export function qpWrite(input: Buffer, out: Buffer, pos: number, state: QpState): number {
  const n = input.length;
  // The hot loop keeps the column in a local; the rare cases go through `state`.
  let column = state.column;
  for (let i = 0; i < n; i++) {
    const b = input[i]!;
    if (b > SP && b < 0x7f && b !== EQ && state.pendingWs < 0) {
      // Printable ASCII with nothing pending: the common byte.
      if (column >= QP_LINE) {
        out[pos++] = EQ;
        out[pos++] = CR;
        out[pos++] = LF;
        column = 0;
      }
      out[pos++] = b;
      column++;
      state.afterCr = false;
      continue;
    }
    state.column = column;
    if (b === LF) {
      if (state.afterCr) state.afterCr = false;
      else pos = hardBreak(out, pos, state);
    } else if (b === CR) {
      pos = hardBreak(out, pos, state);
      state.afterCr = true;
    } else {
      const c1 = b === 0xc2 && i + 1 < n ? input[i + 1]! - 0x80 : -1;
      if (isDroppedControl(b) || (c1 >= 0 && c1 < 32 && !CP1252[c1])) {
        if (c1 >= 0) i++;
      } else {
        state.afterCr = false;
        if (b === SP || b === TAB) {
          pos = flushPending(out, pos, state, true);
          state.pendingWs = b;
        } else if (c1 >= 0 && c1 < 32) {
          // A C1 control (U+0080–U+009F) left by a Windows-1252 text read as Latin-1: its Windows-1252 character.
          pos = flushPending(out, pos, state, true);
          for (const m of CP1252_UTF8[c1]!) pos = put(m, false, out, pos, state);
          i++;
        } else {
          pos = flushPending(out, pos, state, true);
          pos = put(b, b > SP && b < 0x7f && b !== EQ, out, pos, state);
        }
      }
    }
    column = state.column;
  }
  state.column = column;
  return pos;
}

/**
 * `qpWrite` for a string of printable ASCII without `=` (URLs, most merge values): no UTF-8 Buffer in between.
 * Characters outside that set must not be passed (see `isPlainQpAscii`).
 */
export function qpWriteAscii(input: string, out: Buffer, pos: number, state: QpState): number {
  const n = input.length;
  if (n === 0) return pos;
  state.afterCr = false;
  let column = state.column;
  for (let i = 0; i < n; i++) {
    const b = input.charCodeAt(i);
    if (state.pendingWs >= 0) {
      state.column = column;
      pos = flushPending(out, pos, state, true);
      column = state.column;
    }
    if (b === SP) {
      state.pendingWs = b;
      continue;
    }
    if (column >= QP_LINE) {
      out[pos++] = EQ;
      out[pos++] = CR;
      out[pos++] = LF;
      column = 0;
    }
    out[pos++] = b;
    column++;
  }
  state.column = column;
  return pos;
}

/** Ends a body: a pending space or tab is escaped (it would end the body's last line). */
export function qpFinish(out: Buffer, pos: number, state: QpState): number {
  state.afterCr = false;
  return flushPending(out, pos, state, false);
}

/**
 * The first byte of `input` the encoder does not drop (controls, undefined C1 characters), or -1 when it drops
 * them all (the piece then changes nothing).
 */
export function qpFirstEffectiveByte(input: Buffer): number {
  for (let i = 0; i < input.length; i++) {
    const b = input[i]!;
    if (isDroppedControl(b)) continue;
    const c1 = b === 0xc2 && i + 1 < input.length ? input[i + 1]! - 0x80 : -1;
    if (c1 >= 0 && c1 < 32 && !CP1252[c1]) {
      i++;
      continue;
    }
    return b;
  }
  return -1;
}

/**
 * Before copying a pre-encoded piece whose first effective byte is `first` (`qpFirstEffectiveByte`): writes the
 * pending whitespace (literal unless `first` is a line break) so the piece can start with nothing pending.
 */
export function qpBeforePiece(first: number, out: Buffer, pos: number, state: QpState): number {
  if (state.pendingWs < 0) return pos;
  return flushPending(out, pos, state, first !== LF && first !== CR);
}

/** Quoted-printable-encodes a whole body (one piece) into `out` at `pos`; returns the new position. */
export function writeQuotedPrintable(input: Buffer, out: Buffer, pos: number): number {
  const state = newQpState();
  return qpFinish(out, qpWrite(input, out, pos, state), state);
}

const PLAIN_QP_ASCII = /^[\x20-\x3c\x3e-\x7e]*$/;

/** Whether `qpWriteAscii` may encode `value` (printable ASCII, no `=`). */
export function isPlainQpAscii(value: string): boolean {
  return PLAIN_QP_ASCII.test(value);
}

/** Quoted-printable text as a string (for tests and small parts). */
export function encodeQuotedPrintable(text: string): string {
  const input = Buffer.from(text, 'utf8');
  const out = Buffer.allocUnsafe(qpMaxLength(input.length));
  return out.toString('latin1', 0, writeQuotedPrintable(input, out, 0));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the canonical text form drops these
const BODY_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const C1 = /[\u0080-\u009f]/g;

/**
 * A body text in the canonical form the quoted-printable encoder produces (CRLF line breaks, controls dropped,
 * C1 controls as Windows-1252 characters): for base64 bodies and for messages built by other means.
 */
export function canonicalText(text: string): string {
  return text
    .replace(BODY_CONTROLS, '')
    .replace(C1, (c) => {
      const cp = CP1252[c.charCodeAt(0) - 0x80]!;
      return cp ? String.fromCodePoint(cp) : '';
    })
    .replace(/\r\n?|\n/g, '\r\n');
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
// biome-ignore lint/suspicious/noControlCharactersInRegex: CR, LF, TAB and other controls never reach a header
const CONTROL_OR_SPACES = /[\x00-\x20\x7f]+/g;

/**
 * One line of text for a header (no header injection through merge data): line breaks, tabs and other controls
 * become one space, runs of spaces one space, C1 controls their Windows-1252 characters; trimmed.
 */
export function sanitizeHeaderValue(value: string): string {
  return value
    .replace(C1, (c) => {
      const cp = CP1252[c.charCodeAt(0) - 0x80]!;
      return cp ? String.fromCodePoint(cp) : '';
    })
    .replace(CONTROL_OR_SPACES, ' ')
    .trim();
}

/** Header lines aim at 78 characters (RFC 5322 §2.1.1); the phrase/word limits below keep them there. */
const HEADER_LINE = 78;
/** Text that a mail client would take for an encoded-word if it were sent as is. */
const LOOKS_ENCODED = /=\?/;

/** Raw UTF-8 bytes per encoded-word: 42 bytes → 56 base64 characters → a 68-character word. */
const WORD_BYTES = 42;

/**
 * RFC 2047 B-encoded words for a non-ASCII header value, split at UTF-8 character boundaries, each word at most
 * 75 characters, joined by folding whitespace (which decoders drop between two encoded-words).
 */
export function encodeWords(value: string): string {
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

/**
 * An unstructured header value (Subject): folded at spaces when printable ASCII and every folded line fits in
 * 78 characters; encoded-words otherwise (non-ASCII, a word too long to fold, text that looks encoded).
 */
export function encodeUnstructured(headerName: string, value: string): string {
  const clean = sanitizeHeaderValue(value);
  if (PRINTABLE_ASCII.test(clean) && !LOOKS_ENCODED.test(clean)) {
    const folded = foldAscii(headerName.length, clean);
    if (folded.split('\r\n').every((line, i) => (i === 0 ? headerName.length + 2 : 0) + line.length <= HEADER_LINE))
      return folded;
  }
  return encodeWords(clean);
}

const ATEXT_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/;

/** `Name <address>` with the display name as atoms, a quoted string or encoded-words (RFC 5322 §3.4, 2047). */
export function formatAddress(address: string, name?: string | null, headerName = 'From'): string {
  const cleanAddress = sanitizeHeaderValue(address).replace(/[<>\s]/g, '');
  const phrase = name ? formatPhrase(name) : '';
  if (!phrase) return cleanAddress;
  // The address goes on a folded line of its own when it would push the phrase's last line past 78.
  const lastBreak = phrase.lastIndexOf('\r\n');
  const lastLine = lastBreak < 0 ? headerName.length + 2 + phrase.length : phrase.length - lastBreak - 2;
  const separator = lastLine + 3 + cleanAddress.length > HEADER_LINE ? '\r\n ' : ' ';
  return `${phrase}${separator}<${cleanAddress}>`;
}

/** Longest display name written as atoms or a quoted string; longer ones become encoded-words (folded). */
const PHRASE_MAX = 60;

/** A display name as atoms, a quoted string or encoded-words; '' when empty. */
export function formatPhrase(name: string): string {
  const clean = sanitizeHeaderValue(name);
  if (clean.length <= PHRASE_MAX && !LOOKS_ENCODED.test(clean)) {
    if (ATEXT_PHRASE.test(clean)) return clean;
    if (PRINTABLE_ASCII.test(clean)) return `"${clean.replace(/(["\\])/g, '\\$1')}"`;
  }
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
