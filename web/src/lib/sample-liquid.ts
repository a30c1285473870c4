import { type FooterAccount, formatTaxIdLabel } from '@carteiro/shared';

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
 * A quick client-side stand-in for the Liquid renderer, so Liquid never shows raw in a list, a subject or a
 * thumbnail: fills `{{ contato.* }}` (with `default:`) and the links with sample values, `{{ conta.* }}` with the
 * account's data when given, and drops `{% … %}` tags (keeping what they wrap). HTML-escaped like the server.
 */
export function fillSample(
  html: string,
  contact: SampleContact = SAMPLE_CONTACT,
  account?: FooterAccount | null,
): string {
  const escapeHtml = (value: string) =>
    value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
  return html
    .replace(
      /\{\{\s*([\w.]+)\s*(?:\|\s*default:\s*(["'])(.*?)\2\s*)?\}\}/g,
      (_m, path: string, _q, fallback?: string) => {
        let value: string | null | undefined;
        if (path === 'contato.nome') value = contact.name;
        else if (path === 'contato.email') value = contact.email;
        else if (path.startsWith('contato.')) value = contact.fields[path.slice('contato.'.length)];
        else if (path === 'link_descadastro' || path === 'link_navegador') value = '#';
        else if (path === 'conta.nome') value = account?.name;
        else if (path === 'conta.razao_social') value = account?.legalName || account?.name;
        else if (path === 'conta.endereco') value = account?.address;
        else if (path === 'conta.cnpj' || path === 'conta.documento') value = formatTaxIdLabel(account?.taxId);
        else value = '';
        return escapeHtml(value || fallback || '');
      },
    )
    .replace(/\{%-?[\s\S]*?-?%\}/g, '');
}
