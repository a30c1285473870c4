import type { ContactView } from '@carteiro/shared';
import type { contacts } from './contacts.db';

export type ContactRow = typeof contacts.$inferSelect;

function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

export function toContactView(row: ContactRow): ContactView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    fields: row.fields ?? {},
    status: row.status,
    consent: {
      legalBasis: row.legalBasis,
      source: row.consentSource,
      ip: row.consentIp,
      at: iso(row.consentAt),
      text: row.consentText,
    },
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
  };
}
