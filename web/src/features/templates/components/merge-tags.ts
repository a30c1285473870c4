import type { MessageKey, MessageParams } from '@/lib/i18n';

/**
 * Merge tags offered by the "Inserir campo" menu. The tags are Liquid with the pt-BR scope (`contato.*`) in every
 * interface language; the menu label is a catalogue key (`t(label, labelParams)`).
 */
export interface MergeTag {
  label: MessageKey;
  labelParams?: MessageParams;
  tag: string;
}

export const BASE_MERGE_TAGS: MergeTag[] = [
  { label: 'templates.tags.name', tag: '{{ contato.nome | default: "cliente" }}' },
  { label: 'templates.tags.email', tag: '{{ contato.email }}' },
  { label: 'templates.tags.unsubscribe', tag: '{{ link_descadastro }}' },
];

export function customFieldTags(fieldNames: readonly string[]): MergeTag[] {
  return fieldNames
    .filter((name) => /^[\p{L}_][\p{L}\p{N}_]*$/u.test(name))
    .map((name) => ({ label: 'templates.tags.field', labelParams: { name }, tag: `{{ contato.${name} }}` }));
}

export interface SampleContact {
  email: string;
  name: string | null;
  fields: Record<string, string>;
}

export const SAMPLE_CONTACT: SampleContact = {
  email: 'maria.silva@exemplo.com.br',
  name: 'Maria Silva',
  fields: { cidade: 'São Paulo', empresa: 'Padaria Pão Quente' },
};

/**
 * A quick client-side stand-in for the Liquid renderer (library templates have no server preview): fills
 * `{{ contato.* }}` (with `default:`) and the links with sample values. HTML-escaped like the server.
 */
export function fillSample(html: string, contact: SampleContact = SAMPLE_CONTACT): string {
  const escapeHtml = (value: string) =>
    value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
  return html.replace(
    /\{\{\s*([\w.]+)\s*(?:\|\s*default:\s*(["'])(.*?)\2\s*)?\}\}/g,
    (_m, path: string, _q, fallback?: string) => {
      let value: string | null | undefined;
      if (path === 'contato.nome') value = contact.name;
      else if (path === 'contato.email') value = contact.email;
      else if (path.startsWith('contato.')) value = contact.fields[path.slice('contato.'.length)];
      else if (path === 'link_descadastro' || path === 'link_navegador') value = '#';
      else value = '';
      return escapeHtml(value || fallback || '');
    },
  );
}
