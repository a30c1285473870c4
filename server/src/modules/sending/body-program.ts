/**
 * A campaign body compiled once into a "program" of parts, so that each message only renders what varies.
 *
 * The body's parsed Liquid templates (top level) are split into static text — encoded to quoted-printable
 * once per starting column and copied per message — and dynamic parts (outputs and tags), rendered per message
 * with one shared Liquid `Context` (so `assign`/`capture` behave as in one render) and encoded on the spot.
 * Static text is further split at the tracking markers of tracking/rewrite-links.ts (`L<i>;` click link,
 * `O` open pixel), which become the message's click and open URLs. Result: per message, the Liquid work is
 * limited to the merge tags, the QP work to the values and URLs, and everything else is a memcpy.
 *
 * The output is byte for byte the quoted-printable encoding of `renderMessage` + `finishTrackedHtml` by the
 * string path (`mime/build-message.ts buildMimeMessage`): one encoder state (column, pending whitespace, CR)
 * runs across the parts, so soft breaks, escaped trailing whitespace and line breaks split between two parts
 * come out as in a one-piece encoding (ADR 0011). Personalised tracked links (markers around Liquid output) are
 * not handled here: the engine uses the string path for them.
 */
import { Context, Drop, type Liquid, type Template, TokenKind } from 'liquidjs';
import type { EncodedBody } from './mime/build-message';
import {
  isPlainQpAscii,
  newQpState,
  type QpState,
  qpBeforePiece,
  qpFinish,
  qpFirstEffectiveByte,
  qpMaxLength,
  qpWrite,
  qpWriteAscii,
} from './mime/encoding';

const QP_COLUMNS = 76;

/** A static part encoded from one starting state, and the state it ends in. */
interface EncodedStatic {
  bytes: Buffer;
  column: number;
  pendingWs: number;
  afterCr: boolean;
}

interface StaticPart {
  kind: 0;
  text: string;
  bytes: Buffer;
  /** The first byte the encoder keeps (-1: none, the part changes nothing). */
  first: number;
  /**
   * Encodings per starting column (0–75), and per column + 76 when the previous piece ended with a CR and this
   * part starts with its LF (one line break across the two); filled lazily.
   */
  encoded: (EncodedStatic | undefined)[];
}
interface LiquidPart {
  kind: 1;
  template: Template;
  /** A plain `{{ a.b | filter: "literal" }}` evaluated without the generator machinery (same result). */
  fast: FastOutput | null;
}
interface LinkPart {
  kind: 2;
  index: number;
}
interface PixelPart {
  kind: 3;
}
type Part = StaticPart | LiquidPart | LinkPart | PixelPart;

export interface BodyHooks {
  /** The click URL of static link `index` (attribute-safe ASCII). */
  click(index: number): string;
  /** The open pixel URL. */
  pixel(): string;
  /** Applied to a dynamic part's output that contains the marker (a tracked link inside a Liquid block). */
  finish(rendered: string): string;
}

type FastOutput = (ctx: Context) => string;

/** Filters with no side effect beyond the memory accounting, evaluated directly when their arguments are quoted. */
const FAST_FILTERS = ['default', 'escape', 'downcase', 'upcase', 'capitalize', 'strip', 'append', 'prepend'];

/** liquidjs's stringify: what an output writes for a value. */
function stringify(value: unknown): string {
  const v = value instanceof Drop && typeof value.valueOf === 'function' ? value.valueOf() : value;
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(stringify).join('');
  return String(v);
}

interface ParsedFilter {
  handler: (...args: unknown[]) => unknown;
  args: unknown[];
  token: unknown;
}

/**
 * An equivalent of `Output.render` for the common merge tag: a variable path of names or quoted keys, then
 * filters from FAST_FILTERS (the engine's output escape included) whose arguments are all quoted strings. The
 * value is read with the same `Context` lookup (own properties only, drops, `size`/`first`/`last`) and each
 * filter is liquidjs's own function called as liquidjs calls it. Null when the output is anything else.
 */
function compileFastOutput(template: Template, engine: Liquid): FastOutput | null {
  const t = template as unknown as {
    token?: { kind?: number };
    value?: {
      initial?: { postfix?: { kind: number; variable?: unknown; props?: { kind: number; content: string }[] }[] };
      filters?: { handler: ParsedFilter['handler']; args: { kind: number; content: string }[]; token: unknown }[];
    };
  };
  if (t.token?.kind !== TokenKind.Output || !t.value?.initial?.postfix || !t.value.filters) return null;
  const postfix = t.value.initial.postfix;
  const access = postfix[0];
  if (postfix.length !== 1 || !access || access.kind !== TokenKind.PropertyAccess || access.variable) return null;
  const path: string[] = [];
  for (const prop of access.props ?? []) {
    if (prop.kind !== TokenKind.Word && prop.kind !== TokenKind.Quoted) return null;
    path.push(prop.content);
  }
  if (path.length === 0) return null;
  const allowed = new Set<unknown>(FAST_FILTERS.map((name) => (engine.filters as Record<string, unknown>)[name]));
  if (engine.options.outputEscape) allowed.add(engine.options.outputEscape);
  const filters: ParsedFilter[] = [];
  for (const filter of t.value.filters) {
    if (!allowed.has(filter.handler)) return null;
    const args: unknown[] = [];
    for (const arg of filter.args) {
      if (Array.isArray(arg) || arg.kind !== TokenKind.Quoted) return null;
      args.push(arg.content);
    }
    filters.push({ handler: filter.handler, args, token: filter.token });
  }
  return (ctx) => {
    let value: unknown = ctx.getSync(path);
    for (const f of filters)
      value = f.handler.apply({ context: ctx, token: f.token, liquid: engine }, [value, ...f.args]);
    return stringify(value);
  };
}

const scratch = { buffer: Buffer.allocUnsafe(64 * 1024) };

/**
 * Copies static `part` into `out` at `pos` from `state` (updated), as the one-piece encoder would have encoded
 * it at that point: the pending whitespace is written first, then the cached encoding for the state.
 */
function writeStatic(part: StaticPart, out: Buffer, pos: number, state: QpState): number {
  if (part.first < 0) return pos;
  pos = qpBeforePiece(part.first, out, pos, state);
  const key = state.column + (state.afterCr && part.first === 0x0a ? QP_COLUMNS : 0);
  let encoded = part.encoded[key];
  if (encoded === undefined) {
    const max = qpMaxLength(part.bytes.length) + 3;
    if (scratch.buffer.length < max) scratch.buffer = Buffer.allocUnsafe(max * 2);
    const from: QpState = { column: state.column, pendingWs: -1, afterCr: key >= QP_COLUMNS };
    const end = qpWrite(part.bytes, scratch.buffer, 0, from);
    encoded = { bytes: Buffer.from(scratch.buffer.subarray(0, end)), ...from };
    part.encoded[key] = encoded;
  }
  pos += encoded.bytes.copy(out, pos);
  state.column = encoded.column;
  state.pendingWs = encoded.pendingWs;
  state.afterCr = encoded.afterCr;
  return pos;
}

function staticPart(text: string): StaticPart {
  const bytes = Buffer.from(text, 'utf8');
  return { kind: 0, text, bytes, first: qpFirstEffectiveByte(bytes), encoded: new Array(QP_COLUMNS * 2) };
}

export class BodyProgram {
  private readonly parts: Part[] = [];
  /** Whether the output is trimmed (the text part: renderMessage trims it). */
  private readonly trim: boolean;

  constructor(
    templates: Template[],
    private readonly engine: Liquid,
    options: { marker?: string | null; trim?: boolean } = {},
  ) {
    this.trim = options.trim ?? false;
    const marker = options.marker ?? null;
    for (const template of templates) {
      const token = (template as unknown as { token?: { kind?: number } }).token;
      const str = (template as unknown as { str?: unknown }).str;
      if (token?.kind !== TokenKind.HTML || typeof str !== 'string') {
        this.parts.push({ kind: 1, template, fast: compileFastOutput(template, engine) });
        continue;
      }
      this.addStatic(str, marker);
    }
    if (this.trim) {
      const first = this.parts[0];
      if (first?.kind === 0) this.parts[0] = staticPart(first.text.trimStart());
      const last = this.parts[this.parts.length - 1];
      if (last?.kind === 0) this.parts[this.parts.length - 1] = staticPart(last.text.trimEnd());
    }
  }

  private addStatic(text: string, marker: string | null): void {
    let from = 0;
    if (marker) {
      for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, from)) {
        if (at > from) this.parts.push(staticPart(text.slice(from, at)));
        const kind = text.charCodeAt(at + marker.length);
        from = at + marker.length + 1;
        if (kind === 76 /* L */) {
          const semi = text.indexOf(';', from);
          this.parts.push({ kind: 2, index: Number(text.slice(from, semi)) });
          from = semi + 1;
        } else if (kind === 79 /* O */) {
          this.parts.push({ kind: 3 });
        } else {
          throw new Error('personalised tracking markers are not supported by BodyProgram');
        }
      }
    }
    if (from < text.length) this.parts.push(staticPart(text.slice(from)));
  }

  /** The whole output as a string (the subject: small, not encoded here). */
  renderString(scope: object): string {
    const ctx = new Context(scope, this.engine.options, { sync: true }, { liquid: this.engine });
    let out = '';
    for (const part of this.parts) {
      if (part.kind === 0) out += part.text;
      else if (part.kind === 1)
        out += part.fast ? part.fast(ctx) : String(this.engine.renderSync([part.template], ctx));
    }
    return this.trim ? out.trim() : out;
  }

  /** Renders the dynamic parts of one message; the returned body encodes itself into the message buffer. */
  prepare(scope: object, hooks: BodyHooks | null, marker: string | null = null): EncodedBody {
    const ctx = new Context(scope, this.engine.options, { sync: true }, { liquid: this.engine });
    const parts = this.parts;
    const last = parts.length - 1;
    /** Per part: null (static, pre-encoded) or the text to encode (a dynamic value, or a static part re-trimmed). */
    const texts: (string | null)[] = new Array(parts.length);
    for (let i = 0; i <= last; i++) {
      const part = parts[i] as Part;
      if (part.kind === 0) {
        texts[i] = null;
      } else if (part.kind === 1) {
        let value = part.fast ? part.fast(ctx) : String(this.engine.renderSync([part.template], ctx));
        if (marker && hooks && value.includes(marker)) value = hooks.finish(value);
        texts[i] = value;
      } else if (part.kind === 2) {
        texts[i] = hooks ? hooks.click(part.index) : '';
      } else {
        texts[i] = hooks ? hooks.pixel() : '';
      }
    }
    if (this.trim) this.trimAcross(texts);
    const values: (string | Buffer | null)[] = new Array(parts.length);
    let maxLength = 8;
    for (let i = 0; i <= last; i++) {
      const text = texts[i] as string | null;
      if (text === null) {
        maxLength += qpMaxLength((parts[i] as StaticPart).bytes.length) + 3;
        values[i] = null;
        continue;
      }
      // Plain ASCII (URLs, most values) is encoded from the string; anything else through its UTF-8 bytes.
      const encoded = isPlainQpAscii(text) ? text : Buffer.from(text, 'utf8');
      values[i] = encoded;
      maxLength += qpMaxLength(encoded.length) + 3;
    }
    return {
      maxLength,
      write(out: Buffer, start: number): number {
        let pos = start;
        const state = newQpState();
        for (let i = 0; i < parts.length; i++) {
          const value = values[i] as string | Buffer | null;
          if (value === null) pos = writeStatic(parts[i] as StaticPart, out, pos, state);
          else if (typeof value === 'string') pos = qpWriteAscii(value, out, pos, state);
          else pos = qpWrite(value, out, pos, state);
        }
        return qpFinish(out, pos, state);
      },
    };
  }

  /**
   * `trim()` of the whole output, applied across the parts (the string path trims the rendered text): leading
   * and trailing whitespace is dropped from the values and, when a value at the edge renders empty or blank,
   * from the static parts next to it (as per-message text for this message only).
   */
  private trimAcross(texts: (string | null)[]): void {
    const textOf = (i: number) => texts[i] ?? (this.parts[i] as StaticPart).text;
    for (let i = 0; i < texts.length; i++) {
      const current = textOf(i);
      const trimmed = current.trimStart();
      if (trimmed !== current || texts[i] !== null) texts[i] = trimmed;
      if (trimmed.length > 0) break;
    }
    for (let i = texts.length - 1; i >= 0; i--) {
      const current = textOf(i);
      const trimmed = current.trimEnd();
      if (trimmed !== current || texts[i] !== null) texts[i] = trimmed;
      if (trimmed.length > 0) break;
    }
  }
}
