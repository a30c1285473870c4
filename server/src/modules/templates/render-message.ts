import { formatTaxId, formatTaxIdLabel } from '@carteiro/shared';
import { convert } from 'html-to-text';
import type { Template } from 'liquidjs';
import { htmlLiquid, textLiquid } from './liquid-engine';

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
  return {
    subject: textLiquid.parse(source.subject),
    html: htmlLiquid.parse(withPreheader(source.html, source.preheader ?? '')),
    text: textLiquid.parse(text),
  };
}

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
      cnpj: account.taxId ? formatTaxId(account.taxId) : '',
      documento: formatTaxIdLabel(account.taxId),
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
  const subject = String(textLiquid.renderSync(compiled.subject, scope)).replace(/\s+/g, ' ').trim();
  return {
    subject,
    html: String(htmlLiquid.renderSync(compiled.html, scope)),
    text: String(textLiquid.renderSync(compiled.text, scope)).trim(),
  };
}

/** Sample recipient for previews without a chosen contact. */
export const SAMPLE_CONTACT: RenderContact = {
  email: 'maria.silva@exemplo.com.br',
  name: 'Maria Silva',
  fields: { cidade: 'São Paulo', empresa: 'Padaria Pão Quente' },
};
