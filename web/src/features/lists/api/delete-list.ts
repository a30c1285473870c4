import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { LISTS_KEY } from '@/lib/queries/lists';

export function deleteList(id: string): Promise<void> {
  return apiFetch<void>(`/api/lists/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteList() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteList, onSuccess: () => client.invalidateQueries({ queryKey: LISTS_KEY }) });
}
