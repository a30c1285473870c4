import type { ListCreateInput, ListView } from '@carteiro/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/**
 * Mailing lists as several pages read them (the lists pages, the campaign audience, contacts filters, imports,
 * segments, automations), and creating one (the lists pages and the import, which creates its target list in place).
 * LISTS_KEY is the one cache key: a list's mutations invalidate it for every reader.
 */

export type { ListView as MailingList };

export const LISTS_KEY = ['lists'] as const;

export async function getLists(signal?: AbortSignal): Promise<ListView[]> {
  return (await apiFetch<{ items: ListView[] }>('/api/lists', { signal })).items;
}

export function useLists() {
  return useQuery({ queryKey: LISTS_KEY, queryFn: ({ signal }) => getLists(signal) });
}

export function createList(input: ListCreateInput): Promise<ListView> {
  return apiFetch<ListView>('/api/lists', { body: input });
}

export function useCreateList() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createList, onSuccess: () => client.invalidateQueries({ queryKey: LISTS_KEY }) });
}
