import type { contacts } from './contacts.db';

export type ContactRow = typeof contacts.$inferSelect;

/** The JSON shape of a contact in API answers. */
export interface ContactView {
  id: string;
  email: string;
  name: string | null;
  fields: Record<string, string>;
  status: ContactRow['status'];
  consent: {
    legalBasis: string | null;
    source: string | null;
    ip: string | null;
    at: string | null;
    text: string | null;
  };
  createdAt: string;
  updatedAt: string;
}

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
