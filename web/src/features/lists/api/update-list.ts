import type { ListUpdateInput } from '@carteiro/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { LISTS_KEY, type MailingList } from '@/lib/queries/lists';

export function updateList(id: string, input: ListUpdateInput): Promise<MailingList> {
  return apiFetch<MailingList>(`/api/lists/${encodeURIComponent(id)}`, { method: 'PATCH', body: input });
}

export function useUpdateList(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ListUpdateInput) => updateList(id, input),
    onSuccess: () => client.invalidateQueries({ queryKey: LISTS_KEY }),
  });
}
