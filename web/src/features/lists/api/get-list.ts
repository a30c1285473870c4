import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { LISTS_KEY, type MailingList } from '@/lib/queries/lists';

export function getList(id: string, signal?: AbortSignal): Promise<MailingList> {
  return apiFetch<MailingList>(`/api/lists/${encodeURIComponent(id)}`, { signal });
}

export function useList(id: string) {
  return useQuery({ queryKey: [...LISTS_KEY, id], queryFn: ({ signal }) => getList(id, signal) });
}
