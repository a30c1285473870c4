import { formatTaxId, formatTaxIdLabel } from '@carteiro/shared';
import { convert } from 'html-to-text';
import type { Template } from 'liquidjs';
import { htmlLiquid, LIQUID_MEMORY_LIMIT, textLiquid } from './liquid-engine';

/** What a campaign (or a test send, or the viewer) gives the renderer: sources with Liquid merge tags. */
export interface MessageSource {
  subject: string;
  preheader?: string | null;
  html: string;
  /** A hand-written text part; generated from the HTML when absent. */
  text?: string | null;
}

export interface RenderContact {
  email: string;
  name?: string | null;
  fields?: Record<string, unknown> | null;
}

export interface RenderAccount {
  name: string;
  legalName?: string | null;
  address?: string | null;
  taxId?: string | null;
}

export interface RenderLinks {
  /** One-click unsubscribe page of this recipient (`link_descadastro`). */
  unsubscribeUrl: string;
  /** "Ver no navegador" page (`link_navegador`). */
  browserUrl: string;
}

export interface RenderedMessage {
  subject: string;
  html: string;
  text: string;
}

/** A campaign's templates parsed once, reused for every message of the send. */
export interface CompiledCampaign {
  readonly subject: Template[];
  readonly html: Template[];
  readonly text: Template[];
  /** Each part's plain form (plainPartOf), when it has one: rendered without liquidjs, to the same string. */
  readonly plain?: {
    readonly subject: PlainPart | null;
    readonly html: PlainPart | null;
    readonly text: PlainPart | null;
  };
}

/**
 * A part whose source is only literal text and bare `{{ name.name… }}` outputs (no filter, tag, whitespace control
 * or literal): most transactional subjects and bodies. `literals` has one more item than `paths`.
 */
export interface PlainPart {
  readonly literals: readonly string[];
  readonly paths: readonly (readonly string[])[];
}

const PLAIN_OUTPUT = /\{\{[ \t\r\n]*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)[ \t\r\n]*\}\}/g;
/**
 * Names that are not a plain property read in liquidjs: literals (`true`, `nil`, `empty`…) and the properties it
 * computes (`size`, `first`, `last`). A source that uses them is rendered by liquidjs.
 */
const NOT_PLAIN_NAMES = new Set(['true', 'false', 'nil', 'null', 'empty', 'blank', 'size', 'first', 'last']);

/**
 * The plain form of a Liquid source, or null when it has anything else (a tag, a filter, `{{-`, an expression,
 * a literal, a computed property): liquidjs renders those. The caller has parsed the same source with liquidjs
 * already, so a source that reaches here is valid Liquid.
 */
export function plainPartOf(source: string): PlainPart | null {
  const literals: string[] = [];
  const paths: string[][] = [];
  let at = 0;
  for (const match of source.matchAll(PLAIN_OUTPUT)) {
    const path = (match[1] as string).split('.');
    if (path.some((name) => NOT_PLAIN_NAMES.has(name))) return null;
    literals.push(source.slice(at, match.index));
    paths.push(path);
    at = match.index + match[0].length;
  }
  literals.push(source.slice(at));
  // Any other delimiter left in the text is a tag or an output this form does not cover.
  if (literals.some((literal) => literal.includes('{{') || literal.includes('{%'))) return null;
  return { literals, paths };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
const ESCAPED = /&|<|>|"|'/g;

/** Objects liquidjs reads as plain property bags (no Drop, no class instance, no array). */
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * A plain part rendered as liquidjs renders it with the engines' options (own properties only, a missing name
 * renders empty, HTML output escaped with liquidjs's `escape`, strings/numbers/booleans printed as `String` does),
 * or undefined when a value is anything else (an array, an object, a function…) or the escaped values pass the
 * memory limit: liquidjs then renders the part, with whatever it prints or throws.
 */
export function renderPlainPart(part: PlainPart, scope: object, escapeHtml: boolean): string | undefined {
  let out = part.literals[0] as string;
  let used = 0;
  for (let i = 0; i < part.paths.length; i++) {
    const path = part.paths[i] as readonly string[];
    let value: unknown = scope;
    for (const name of path) {
      if (value === undefined || value === null) break;
      if (!isPlainObject(value)) return undefined;
      value = Object.hasOwn(value, name) ? value[name] : undefined;
    }
    let printed: string;
    if (typeof value === 'string') printed = value;
    else if (value === undefined || value === null) printed = '';
    else if (typeof value === 'number' || typeof value === 'boolean') printed = String(value);
    else return undefined;
    if (escapeHtml) {
      used += printed.length;
      if (used > LIQUID_MEMORY_LIMIT) return undefined;
      printed = printed.replace(ESCAPED, (c) => ESCAPES[c] as string);
    }
    out += printed + (part.literals[i + 1] as string);
  }
  return out;
}

const LIQUID_TAG = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
const PLACEHOLDER = /@@LIQ(\d+)@@/g;
const BODY_OPEN = /<body\b[^>]*>/i;

/**
 * The plain-text part, derived from the HTML *source* once per campaign, so each message renders a small text
 * template instead of converting HTML per recipient. Liquid tags are swapped for inert placeholders during the
 * conversion (so upper-casing headings or wrapping lines cannot damage them), then restored.
 */
export function htmlSourceToTextSource(html: string): string {
  const tags: string[] = [];
  const protectedHtml = html.replace(LIQUID_TAG, (tag) => `@@LIQ${tags.push(tag) - 1}@@`);
  const text = convert(protectedHtml, {
    wordwrap: 78,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: 'h4', options: { uppercase: false } },
      { selector: 'h5', options: { uppercase: false } },
      { selector: 'h6', options: { uppercase: false } },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
      { selector: '[style*="display:none"]', format: 'skip' },
      { selector: '[style*="display: none"]', format: 'skip' },
    ],
  });
  return text.replace(PLACEHOLDER, (_match, index: string) => tags[Number(index)] ?? '');
}

function preheaderBlock(preheader: string): string {
  // Hidden in the body, shown by inboxes beside the subject; the padding keeps body text out of the snippet.
  return `<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all;font-size:1px;line-height:1px;color:transparent">${preheader}${'&#847;&zwnj;&nbsp;'.repeat(30)}</div>`;
}

function withPreheader(html: string, preheader: string): string {
  if (!preheader.trim()) return html;
  const match = BODY_OPEN.exec(html);
  if (!match) return preheaderBlock(preheader) + html;
  const at = match.index + match[0].length;
  return html.slice(0, at) + preheaderBlock(preheader) + html.slice(at);
}

/**
 * Parses subject, preheader, HTML and text once. Throws liquidjs's ParseError/TokenizationError on broken
 * Liquid (validate-template.ts reports those in pt-BR at save time, so a saved campaign normally compiles).
 */
export function compileCampaign(source: MessageSource): CompiledCampaign {
  const text = source.text?.trim() ? source.text : htmlSourceToTextSource(source.html);
  const html = withPreheader(source.html, source.preheader ?? '');
  return {
    subject: textLiquid.parse(source.subject),
    html: htmlLiquid.parse(html),
    text: textLiquid.parse(text),
    plain: { subject: plainPartOf(source.subject), html: plainPartOf(html), text: plainPartOf(text) },
  };
}

/**
 * The account's document as the scope prints it, per tax id (a pure function of it, called for every message of a
 * send: formatted once per distinct id; bounded).
 */
function taxIdTexts(taxId: string | null | undefined): { cnpj: string; documento: string } {
  const key = taxId ?? '';
  const known = taxIdTextCache.get(key);
  if (known) return known;
  const texts = { cnpj: taxId ? formatTaxId(taxId) : '', documento: formatTaxIdLabel(taxId) };
  if (taxIdTextCache.size >= 1_000) taxIdTextCache.clear();
  taxIdTextCache.set(key, texts);
  return texts;
}
const taxIdTextCache = new Map<string, { cnpj: string; documento: string }>();

/** The Liquid scope of one message; the variable names are pt-BR (product §5 B). */
export function buildScope(contact: RenderContact, account: RenderAccount, links: RenderLinks, campaignName = '') {
  const fields = contact.fields ?? {};
  return {
    contato: { ...fields, nome: contact.name ?? '', email: contact.email },
    conta: {
      nome: account.name,
      razao_social: account.legalName ?? account.name,
      endereco: account.address ?? '',
      // Formatted as people write it (11.222.333/0001-81); `documento` adds the kind ("CNPJ …" / "CPF …").
      ...taxIdTexts(account.taxId),
    },
    campanha: { nome: campaignName },
    link_descadastro: links.unsubscribeUrl,
    link_navegador: links.browserUrl,
  };
}

/** A message's scope; library templates sent with per-message data also have `dados` (ADR 0035). */
export type MessageScope = ReturnType<typeof buildScope> & { dados?: Record<string, unknown> };

/**
 * Renders one message: pure (no I/O), synchronous, meant to be called per recipient by the sending engine.
 * The subject is collapsed to one line (a header cannot carry newlines).
 */
export function renderMessage(compiled: CompiledCampaign, scope: MessageScope): RenderedMessage {
  // A part in its plain form is printed directly (renderPlainPart: the same string, without liquidjs's generators
  // and context per part); anything it does not cover goes through liquidjs.
  const plain = compiled.plain;
  const subject =
    (plain?.subject && renderPlainPart(plain.subject, scope, false)) ??
    String(textLiquid.renderSync(compiled.subject, scope));
  const html =
    (plain?.html && renderPlainPart(plain.html, scope, true)) ?? String(htmlLiquid.renderSync(compiled.html, scope));
  const text =
    (plain?.text && renderPlainPart(plain.text, scope, false)) ?? String(textLiquid.renderSync(compiled.text, scope));
  return { subject: subject.replace(/\s+/g, ' ').trim(), html, text: text.trim() };
}

/** Sample recipient for previews without a chosen contact. */
export const SAMPLE_CONTACT: RenderContact = {
  email: 'maria.silva@exemplo.com.br',
  name: 'Maria Silva',
  fields: { cidade: 'São Paulo', empresa: 'Padaria Pão Quente' },
};
