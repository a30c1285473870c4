import { formatTaxId } from './schemas/account';

/**
 * The identity footer every marketing e-mail carries (CAPEM: the sender identified, an opt-out link and a second
 * route to it): why the recipient gets it, the razão social with its formatted CNPJ/CPF, the address, and the
 * "Descadastrar" and "Ver no navegador" links. One definition for the starter templates (server), the blank
 * template and the visual editor's locked footer block (web), so they never drift apart.
 *
 * The element carries `data-carteiro-bloco="rodape"`: the visual editor recognises it and shows it as one locked
 * block with the account's real data instead of the Liquid below.
 */

/** The attribute that marks the footer block in saved HTML. */
export const IDENTITY_FOOTER_MARKER = 'data-carteiro-bloco="rodape"';

/** `CNPJ 11.222.333/0001-81` or `CPF 123.456.789-09` from the stored digits; '' when there is none. */
export function formatTaxIdLabel(taxId: string | null | undefined): string {
  const digits = (taxId ?? '').replace(/\D/g, '');
  if (digits.length === 14) return `CNPJ ${formatTaxId(digits)}`;
  if (digits.length === 11) return `CPF ${formatTaxId(digits)}`;
  return taxId?.trim() ?? '';
}

const CELL_STYLE =
  'padding:24px 32px;border-top:1px solid #e5e7eb;font-family:Arial,Helvetica,sans-serif;font-size:12px;line-height:18px;color:#6b7280;text-align:center;';
const LINK_STYLE = 'color:#6b7280;text-decoration:underline;';

/** The footer's inner lines, given how each piece is written (Liquid for sending, real data for display). */
function footerLines(parts: {
  name: string;
  identity: string;
  address: string;
  unsubscribeHref: string;
  browserHref: string;
}): string {
  return [
    `Você recebeu este e-mail porque se cadastrou em ${parts.name}.<br>`,
    `${parts.identity}<br>`,
    `${parts.address}<br>`,
    `<a href="${parts.unsubscribeHref}" style="${LINK_STYLE}">Descadastrar</a> · `,
    `<a href="${parts.browserHref}" style="${LINK_STYLE}">Ver no navegador</a>`,
  ].join('\n');
}

/** The footer's content in Liquid, as it is saved and sent (rendered per message by the server). */
export const IDENTITY_FOOTER_LINES = footerLines({
  name: '{{ conta.nome }}',
  identity: '{{ conta.razao_social }}{% if conta.documento != "" %} · {{ conta.documento }}{% endif %}',
  address: '{{ conta.endereco }}',
  unsubscribeHref: '{{ link_descadastro }}',
  browserHref: '{{ link_navegador }}',
});

/** The footer's one row (its cell holds the lines). */
function identityFooterRow(lines: string = IDENTITY_FOOTER_LINES, className = 'px'): string {
  return `<tr><td class="${className} carteiro-rodape" style="${CELL_STYLE}">${lines}</td></tr>`;
}

/** The footer as a full-width table (one row), ready to sit inside a template's 600 px column. */
export function identityFooterTable(lines: string = IDENTITY_FOOTER_LINES, className = 'px'): string {
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" ${IDENTITY_FOOTER_MARKER}>${identityFooterRow(lines, className)}</table>`;
}

export interface FooterAccount {
  name: string;
  legalName: string | null;
  taxId: string | null;
  address: string | null;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The footer's lines as the recipient will read them, filled with the account's data (the editor shows this in
 * place of the Liquid). A missing piece reads as what to fill in, so the owner sees the gap before sending.
 */
export function identityFooterDisplayLines(account: FooterAccount): string {
  const missing = (text: string) => `<em>${text}</em>`;
  const legalName = account.legalName?.trim() || account.name;
  const document = formatTaxIdLabel(account.taxId);
  return footerLines({
    name: escapeHtml(account.name),
    identity: `${escapeHtml(legalName)} · ${document ? escapeHtml(document) : missing('CNPJ ou CPF (complete em Configurações)')}`,
    address: account.address?.trim() ? escapeHtml(account.address) : missing('Endereço (complete em Configurações)'),
    unsubscribeHref: '#',
    browserHref: '#',
  });
}

/**
 * A "bulletproof" button: the colour sits on a table cell (Outlook's Word engine ignores padding and background
 * on links), the link repeats both for the clients that honour them, so the whole area is clickable there.
 */
export function bulletproofButton(options: { text: string; href: string; color?: string; align?: string }): string {
  const color = options.color ?? '#6d28d9';
  const align = options.align ?? 'center';
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" data-carteiro-bloco="botao"><tr><td align="${align}" style="padding:12px 24px;"><table role="presentation" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate;"><tr><td align="center" bgcolor="${color}" style="background:${color};border-radius:6px;mso-padding-alt:12px 28px;"><a href="${options.href}" target="_blank" style="display:inline-block;padding:12px 28px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:20px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;background:${color};">${options.text}</a></td></tr></table></td></tr></table>`;
}
