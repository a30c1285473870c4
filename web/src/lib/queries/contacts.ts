import type { ContactDetail, ContactPage, ContactQuery, ContactStatus, ContactView } from '@carteiro/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import type { MessageKey } from '@/lib/i18n';

/**
 * Contacts as several pages read them (the contacts pages, the list page, the template editor's sample contact).
 * CONTACTS_KEY is the one cache key: a contact's mutations invalidate it for every reader.
 */

export type { ContactDetail, ContactPage, ContactStatus, ContactView as Contact };

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

export const CONTACTS_PAGE_SIZE = 50;

export function getContacts(filter: ContactFilter, cursor: string | null, signal?: AbortSignal) {
  const extra: Record<string, string> = { limit: String(CONTACTS_PAGE_SIZE) };
  if (cursor) extra.cursor = cursor;
  return apiFetch<ContactPage>(`/api/contacts${filterQuery(filter, extra)}`, { signal });
}

/** Keyset pagination: each "Carregar mais" asks for the page after the last cursor. */
export function useContacts(filter: ContactFilter) {
  return useInfiniteQuery({
    queryKey: [...CONTACTS_KEY, 'list', filter],
    queryFn: ({ pageParam, signal }) => getContacts(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
