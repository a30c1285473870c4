import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { LISTS_KEY, type MailingList } from './types';

export async function getLists(signal?: AbortSignal): Promise<MailingList[]> {
  return (await apiFetch<{ items: MailingList[] }>('/api/lists', { signal })).items;
}

export function useLists() {
  return useQuery({ queryKey: LISTS_KEY, queryFn: ({ signal }) => getLists(signal) });
}
