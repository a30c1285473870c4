import { type FooterAccount, formatTaxIdLabel } from '@carteiro/shared';
import '@/lib/i18n/app-messages';
import { getLocale, type MessageKey, translate } from '@/lib/i18n';

/**
 * Liquid never shows raw in the visual editor: every `{{ … }}` or `{% … %}` in the e-mail's text becomes a chip —
 * a non-editable `<span data-liquid="…">` that reads "Nome do contato", or the account's real data for `conta.*` —
 * and the chip saves back as exactly the Liquid it came from. Attributes (a link's `{{ link_descadastro }}`) stay
 * as written: the owner does not read them in the canvas.
 */

/** The attribute holding a chip's Liquid. */
export const CHIP_ATTRIBUTE = 'data-liquid';
export const CHIP_CLASS = 'carteiro-campo';

/** One Liquid piece in text: an if/unless/for/case/capture block up to its end tag, or a lone output/tag. */
const LIQUID_IN_TEXT =
  /\{%-?\s*(if|unless|for|case|capture)\b[\s\S]*?\{%-?\s*end\1\s*-?%\}|\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;

/** The words a chip shows for a Liquid piece: the field's name, or the account's own data for `conta.*`. */
export function chipLabel(liquid: string, account?: FooterAccount | null): string {
  const text = (key: MessageKey, params?: Record<string, string>) => translate(getLocale(), key, params);
  const output = liquid.match(/^\{\{-?\s*([\w.]+)/);
  const path = output?.[1];
  if (!path || liquid.startsWith('{%')) return text('liquidChip.custom');
  const known = KNOWN_CHIPS[path];
  if (known) return text(known);
  if (path.startsWith('contato.')) return text('liquidChip.field', { name: path.slice('contato.'.length) });
  if (path.startsWith('evento.')) return text('liquidChip.eventData', { name: path.slice('evento.'.length) });
  if (path.startsWith('conta.')) {
    const key = path.slice('conta.'.length);
    const value =
      key === 'nome'
        ? account?.name
        : key === 'razao_social'
          ? account?.legalName || account?.name
          : key === 'endereco'
            ? account?.address
            : key === 'cnpj' || key === 'documento'
              ? formatTaxIdLabel(account?.taxId)
              : undefined;
    const name = ACCOUNT_CHIPS[key];
    return value?.trim() || text(name ?? 'liquidChip.accountData');
  }
  return text('liquidChip.custom');
}

const KNOWN_CHIPS: Record<string, MessageKey> = {
  'contato.nome': 'liquidChip.contactName',
  'contato.email': 'liquidChip.contactEmail',
  link_descadastro: 'liquidChip.unsubscribeLink',
  link_navegador: 'liquidChip.browserLink',
  'campanha.nome': 'liquidChip.campaignName',
};

const ACCOUNT_CHIPS: Record<string, MessageKey> = {
  nome: 'liquidChip.accountName',
  razao_social: 'liquidChip.legalName',
  endereco: 'liquidChip.address',
  cnpj: 'liquidChip.taxId',
  documento: 'liquidChip.taxId',
};

const escapeText = (value: string) =>
  value.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c);
const escapeAttribute = (value: string) => escapeText(value).replace(/"/g, '&quot;');

/** The chip's HTML for a Liquid piece (what "Inserir campo…" puts at the caret). */
export function chipHtml(liquid: string, account?: FooterAccount | null): string {
  return `<span ${CHIP_ATTRIBUTE}="${escapeAttribute(liquid)}" class="${CHIP_CLASS}" contenteditable="false">${escapeText(chipLabel(liquid, account))}</span>`;
}

const SKIPPED_PARENTS = new Set(['STYLE', 'SCRIPT', 'TITLE', 'TEXTAREA', 'HEAD']);

/**
 * The HTML with every Liquid piece found in text nodes turned into a chip; the rest is kept as parsed by the
 * browser (the doctype aside — the editor works on the body and its styles).
 */
export function liquidToChips(html: string, account?: FooterAccount | null): string {
  if (!/\{\{|\{%/.test(html)) return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if (!SKIPPED_PARENTS.has(text.parentElement?.tagName ?? '') && /\{\{|\{%/.test(text.data)) texts.push(text);
  }
  for (const text of texts) {
    const fragment = doc.createDocumentFragment();
    let last = 0;
    for (const match of text.data.matchAll(LIQUID_IN_TEXT)) {
      const index = match.index ?? 0;
      if (index > last) fragment.append(text.data.slice(last, index));
      const chip = doc.createElement('span');
      chip.setAttribute(CHIP_ATTRIBUTE, match[0]);
      chip.setAttribute('class', CHIP_CLASS);
      chip.setAttribute('contenteditable', 'false');
      chip.textContent = chipLabel(match[0], account);
      fragment.append(chip);
      last = index + match[0].length;
    }
    if (last < text.data.length) fragment.append(text.data.slice(last));
    text.replaceWith(fragment);
  }
  const head = doc.head.innerHTML.trim();
  return `<!doctype html>\n<html lang="${doc.documentElement.lang || 'pt-BR'}">${head ? `<head>${head}</head>` : ''}<body${bodyAttributes(doc.body)}>${doc.body.innerHTML}</body></html>`;
}

function bodyAttributes(body: HTMLElement): string {
  return Array.from(body.attributes)
    .map((a) => ` ${a.name}="${escapeAttribute(a.value)}"`)
    .join('');
}

const ENTITIES: Record<string, string> = {
  '&quot;': '"',
  '&#34;': '"',
  '&#39;': "'",
  '&#x27;': "'",
  '&apos;': "'",
  '&gt;': '>',
  '&lt;': '<',
  '&nbsp;': ' ',
  '&#160;': ' ',
  '&amp;': '&',
};

/**
 * Undoes the HTML escaping that serialisers (GrapesJS, the CSS inliner) apply inside Liquid delimiters, so
 * `{{ contato.nome | default: &quot;cliente&quot; }}` is saved as the Liquid the owner chose.
 */
export function restoreLiquid(html: string): string {
  return html.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, (piece) =>
    piece.replace(/&(?:quot|#34|#39|#x27|apos|gt|lt|nbsp|#160|amp);/g, (entity) => ENTITIES[entity] ?? entity),
  );
}
