import { useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CONTACTS_KEY, type ContactFilter, type ContactPage, filterQuery } from './types';

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
