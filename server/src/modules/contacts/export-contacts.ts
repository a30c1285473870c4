import {
  CONTACT_EXPORT_HEADERS,
  CONTACT_STATUS_LABELS,
  type ContactQuery,
  DEFAULT_TIME_ZONE,
  displayFieldValue,
  fieldHeader,
  formatDateTimeBR,
  LEGAL_BASIS_LABELS,
} from '@carteiro/shared';
import type { Db } from '../../db/database';
import { findAccount } from '../accounts/accounts.service';
import { findCustomFieldNames } from './custom-field-names';
import { findContacts } from './find-contacts';

/**
 * Escapes one CSV cell: formula injection (OWASP CSV injection) — a cell starting with = + - @ tab or CR is
 * prefixed with a single quote so Excel / LibreOffice show it as text — then RFC 4180 quoting.
 */
export function csvCell(value: string | null | undefined, delimiter: string): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  if (text.includes('"') || text.includes(delimiter) || /[\r\n]/.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

/**
 * Streams the account's contacts matching a filter as the CSV a person opens in Excel pt-BR (ADR 0017): UTF-8
 * with BOM, `;` unless `,` is asked for, pt-BR headers and values, one column per custom field, dates
 * `dd/mm/aaaa hh:mm` in the account's time zone. Page by page by keyset, so memory stays flat at a million rows.
 * Importing the file back changes nothing (the importer knows these headers). The machine-readable form of a
 * contact's data is the LGPD JSON export (export-contact-data.ts).
 */
export async function* exportContactsCsv(
  db: Db,
  accountId: string,
  filter: Omit<ContactQuery, 'cursor' | 'limit'>,
  options: { delimiter?: ',' | ';' } = {},
): AsyncGenerator<string> {
  const d = options.delimiter ?? ';';
  const line = (cells: Array<string | null>) => `${cells.map((c) => csvCell(c, d)).join(d)}\r\n`;
  const [account, keys] = await Promise.all([findAccount(db, accountId), findCustomFieldNames(db, accountId)]);
  const timeZone = account?.timeZone ?? DEFAULT_TIME_ZONE;
  const h = CONTACT_EXPORT_HEADERS;
  yield `\uFEFF${line([h.email, h.name, ...keys.map(fieldHeader), h.status, h.legalBasis, h.consentSource, h.createdAt])}`;
  let cursor: string | undefined;
  do {
    const page = await findContacts(db, accountId, { ...filter, cursor, limit: 200 });
    let chunk = '';
    for (const c of page.items) {
      chunk += line([
        c.email,
        c.name,
        ...keys.map((k) => displayFieldValue(c.fields[k] ?? '')),
        CONTACT_STATUS_LABELS[c.status as keyof typeof CONTACT_STATUS_LABELS] ?? c.status,
        c.consent.legalBasis
          ? (LEGAL_BASIS_LABELS[c.consent.legalBasis as keyof typeof LEGAL_BASIS_LABELS] ?? c.consent.legalBasis)
          : '',
        c.consent.source,
        formatDateTimeBR(c.createdAt, timeZone),
      ]);
    }
    if (chunk) yield chunk;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
