import type { ListCreateInput } from '@carteiro/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { LISTS_KEY, type MailingList } from '@/lib/queries/lists';

export function createList(input: ListCreateInput): Promise<MailingList> {
  return apiFetch<MailingList>('/api/lists', { body: input });
}

export function useCreateList() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createList, onSuccess: () => client.invalidateQueries({ queryKey: LISTS_KEY }) });
}
