import type { ContactQuery } from '@carteiro/shared';
import type { MessageKey } from '@/lib/i18n';

export type ContactStatus = 'subscribed' | 'unsubscribed' | 'bounced' | 'complained';

export interface Contact {
  id: string;
  email: string;
  name: string | null;
  fields: Record<string, string>;
  status: ContactStatus;
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

export interface ContactDetail extends Contact {
  lists: Array<{ listId: string; status: string; createdAt: string }>;
}

export interface ContactPage {
  items: Contact[];
  nextCursor: string | null;
}

export type ContactFilter = Omit<ContactQuery, 'cursor' | 'limit'>;

export const CONTACTS_KEY = ['contacts'] as const;

/** Catalogue keys of the contact statuses (`t(CONTACT_STATUS_LABELS[status])`). */
export const CONTACT_STATUS_LABELS: Record<ContactStatus, MessageKey> = {
  subscribed: 'contacts.status.subscribed',
  unsubscribed: 'contacts.status.unsubscribed',
  bounced: 'contacts.status.bounced',
  complained: 'contacts.status.complained',
};

/** Catalogue keys of the LGPD legal bases. */
export const LEGAL_BASIS_LABELS: Record<string, MessageKey> = {
  consent: 'contacts.legalBasis.consent',
  legitimate_interest: 'contacts.legalBasis.legitimate_interest',
};

/** `?search=…&status=…&listId=…` without empty values. */
export function filterQuery(filter: ContactFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, ...extra })) if (value) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
