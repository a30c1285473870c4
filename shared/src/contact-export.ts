import type { CONTACT_STATUS_VALUES, LEGAL_BASIS_VALUES } from './schemas/audience';

/**
 * The contact CSV export as a person opens it in Excel pt-BR (ADR 0017): pt-BR headers and values, one column
 * per custom field, dates `dd/mm/aaaa hh:mm` in the account's time zone. The importer knows these headers, so
 * importing an export back maps E-mail and Nome, keeps the custom fields, and ignores the other columns.
 */
export const CONTACT_EXPORT_HEADERS = {
  email: 'E-mail',
  name: 'Nome',
  status: 'Situação',
  legalBasis: 'Base legal (LGPD)',
  consentSource: 'Origem do consentimento',
  createdAt: 'Cadastrado em',
} as const;

export const CONTACT_STATUS_LABELS: Record<(typeof CONTACT_STATUS_VALUES)[number], string> = {
  subscribed: 'Inscrito',
  unsubscribed: 'Descadastrado',
  bounced: 'E-mail não existe (devolvido)',
  complained: 'Marcou como spam',
};

export const LEGAL_BASIS_LABELS: Record<(typeof LEGAL_BASIS_VALUES)[number], string> = {
  consent: 'Consentimento',
  legitimate_interest: 'Legítimo interesse',
};

/** The custom-field key the importer derives from a column header (trimmed, lower-case, spaces → `_`). */
export function fieldKeyFromHeader(header: string): string {
  return header.trim().toLowerCase().replace(/\s+/g, '_').slice(0, 100);
}

/**
 * The column header of a custom field: readable ("data_nascimento" → "Data nascimento") when the importer turns
 * it back into the same key, else the key itself, so a round trip never renames a field.
 */
export function fieldHeader(key: string): string {
  const readable = key.replace(/_/g, ' ');
  const titled = readable.charAt(0).toUpperCase() + readable.slice(1);
  return fieldKeyFromHeader(titled) === key ? titled : key;
}

/** Headers of our own export that are not contact data to import (status, consent evidence, dates). */
export function isExportOnlyHeader(header: string): boolean {
  const h = header.trim();
  return (
    h === CONTACT_EXPORT_HEADERS.status ||
    h === CONTACT_EXPORT_HEADERS.legalBasis ||
    h === CONTACT_EXPORT_HEADERS.consentSource ||
    h === CONTACT_EXPORT_HEADERS.createdAt
  );
}
