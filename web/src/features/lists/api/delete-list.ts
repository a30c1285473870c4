import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { LISTS_KEY, type MailingList } from '@/lib/queries/lists';

export function deleteList(id: string): Promise<void> {
  return apiFetch<void>(`/api/lists/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteList,
    onSuccess: (_, id) => {
      // The deleted list leaves the cached lists at once: the lists page, opened right after, would otherwise show
      // it from the cache until its refetch answers. Its own queries are not refetched into a 404.
      client.setQueryData<MailingList[]>(LISTS_KEY, (lists) => lists?.filter((list) => list.id !== id));
      return client.invalidateQueries({ queryKey: LISTS_KEY, predicate: (query) => query.queryKey[1] !== id });
    },
  });
}
