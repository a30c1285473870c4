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
 * The output is valid quoted-printable of the same text as `renderMessage` + `finishTrackedHtml` (soft line
 * breaks may fall elsewhere and a space ending a part is escaped). Personalised tracked links (markers around
 * Liquid output) are not handled here: the engine uses the string path for them.
 */
import { Context, Drop, type Liquid, type Template, TokenKind } from 'liquidjs';
import type { EncodedBody } from './mime/build-message';
import {
  isPlainQpAscii,
  qpMaxLength,
  qpState,
  writeQuotedPrintableAsciiAt,
  writeQuotedPrintableAt,
} from './mime/encoding';

const QP_COLUMNS = 76;

interface StaticPart {
  kind: 0;
  text: string;
  bytes: Buffer;
  /** Encoded bytes per starting column, and the column each ends at (filled lazily). */
  encoded: (Buffer | undefined)[];
  ends: Int8Array;
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

function encodeStatic(part: StaticPart, column: number): Buffer {
  let encoded = part.encoded[column];
  if (encoded === undefined) {
    const max = qpMaxLength(part.bytes.length) + 3;
    if (scratch.buffer.length < max) scratch.buffer = Buffer.allocUnsafe(max * 2);
    const end = writeQuotedPrintableAt(part.bytes, scratch.buffer, 0, column);
    encoded = Buffer.from(scratch.buffer.subarray(0, end));
    part.encoded[column] = encoded;
    part.ends[column] = qpState.column;
  }
  return encoded;
}

function staticPart(text: string): StaticPart {
  return {
    kind: 0,
    text,
    bytes: Buffer.from(text, 'utf8'),
    encoded: new Array(QP_COLUMNS),
    ends: new Int8Array(QP_COLUMNS),
  };
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
      if (first?.kind === 0) this.parts[0] = staticPart(first.bytes.toString('utf8').trimStart());
      const last = this.parts[this.parts.length - 1];
      if (last?.kind === 0) this.parts[this.parts.length - 1] = staticPart(last.bytes.toString('utf8').trimEnd());
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
    const values: (string | Buffer | null)[] = new Array(this.parts.length);
    let maxLength = 0;
    const last = this.parts.length - 1;
    for (let i = 0; i <= last; i++) {
      const part = this.parts[i] as Part;
      if (part.kind === 0) {
        maxLength += part.bytes.length * 3 + Math.ceil((part.bytes.length * 3) / 75) * 3 + 8;
        values[i] = null;
        continue;
      }
      let value: string;
      if (part.kind === 1) {
        value = part.fast ? part.fast(ctx) : String(this.engine.renderSync([part.template], ctx));
        if (marker && hooks && value.includes(marker)) value = hooks.finish(value);
        if (this.trim && i === 0) value = value.trimStart();
        if (this.trim && i === last) value = value.trimEnd();
      } else if (part.kind === 2) {
        value = hooks ? hooks.click(part.index) : '';
      } else {
        value = hooks ? hooks.pixel() : '';
      }
      // Plain ASCII (URLs, most values) is encoded from the string; anything else through its UTF-8 bytes.
      const encoded = isPlainQpAscii(value) ? value : Buffer.from(value, 'utf8');
      values[i] = encoded;
      maxLength += qpMaxLength(encoded.length) + 3;
    }
    const parts = this.parts;
    return {
      maxLength,
      write(out: Buffer, start: number): number {
        let pos = start;
        let column = 0;
        for (let i = 0; i < parts.length; i++) {
          const part = parts[i] as Part;
          if (part.kind === 0) {
            const encoded = encodeStatic(part, column);
            pos += encoded.copy(out, pos);
            column = part.ends[column] as number;
          } else {
            const value = values[i] as string | Buffer;
            pos =
              typeof value === 'string'
                ? writeQuotedPrintableAsciiAt(value, out, pos, column)
                : writeQuotedPrintableAt(value, out, pos, column);
            column = qpState.column;
          }
        }
        return pos;
      },
    };
  }
}
