import { type ContactFilter, filterQuery } from '@/lib/queries/contacts';

/** URL of the CSV export of a filter (UTF-8 with BOM; `;` for Excel pt-BR when asked). Downloaded by the browser. */
export function exportContactsUrl(filter: ContactFilter, delimiter: ',' | ';'): string {
  return `/api/contacts/export.csv${filterQuery(filter, { delimiter: delimiter === ';' ? 'semicolon' : 'comma' })}`;
}
