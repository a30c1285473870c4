import type { ContactQuery } from '@carteiro/shared';
import type { Db } from '../../db/database';
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
 * Streams the account's contacts matching a filter as CSV lines (UTF-8 with BOM for Excel; `;` for pt-BR Excel
 * when asked), page by page by keyset so memory stays flat at a million rows. Columns: email, name, status,
 * campos (custom fields as JSON: keys vary per contact and a stream cannot know them all up front),
 * consent evidence, created_at.
 */
export async function* exportContactsCsv(
  db: Db,
  accountId: string,
  filter: Omit<ContactQuery, 'cursor' | 'limit'>,
  options: { delimiter?: ',' | ';' } = {},
): AsyncGenerator<string> {
  const d = options.delimiter ?? ',';
  const line = (cells: Array<string | null>) => `${cells.map((c) => csvCell(c, d)).join(d)}\r\n`;
  yield `\uFEFF${line(['email', 'nome', 'status', 'campos', 'base_legal', 'origem_consentimento', 'criado_em'])}`;
  let cursor: string | undefined;
  do {
    const page = await findContacts(db, accountId, { ...filter, cursor, limit: 200 });
    let chunk = '';
    for (const c of page.items) {
      const fields = Object.keys(c.fields).length > 0 ? JSON.stringify(c.fields) : '';
      chunk += line([c.email, c.name, c.status, fields, c.consent.legalBasis, c.consent.source, c.createdAt]);
    }
    if (chunk) yield chunk;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
