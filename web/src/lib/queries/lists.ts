import type { ListCreateInput } from '@carteiro/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/**
 * Mailing lists as several pages read them (the lists pages, the campaign audience, contacts filters, imports,
 * segments, automations), and creating one (the lists pages and the import, which creates its target list in place).
 * LISTS_KEY is the one cache key: a list's mutations invalidate it for every reader.
 */

/** A mailing list as the API answers it (server ListView). */
export interface MailingList {
  id: string;
  name: string;
  description: string | null;
  optIn: 'single' | 'double';
  contactCount: number;
  subscribedCount: number;
  createdAt: string;
  updatedAt: string;
}

export const LISTS_KEY = ['lists'] as const;

export async function getLists(signal?: AbortSignal): Promise<MailingList[]> {
  return (await apiFetch<{ items: MailingList[] }>('/api/lists', { signal })).items;
}

export function useLists() {
  return useQuery({ queryKey: LISTS_KEY, queryFn: ({ signal }) => getLists(signal) });
}

export function createList(input: ListCreateInput): Promise<MailingList> {
  return apiFetch<MailingList>('/api/lists', { body: input });
}

export function useCreateList() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createList, onSuccess: () => client.invalidateQueries({ queryKey: LISTS_KEY }) });
}
