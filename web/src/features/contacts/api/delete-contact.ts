import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CONTACTS_KEY } from '@/lib/queries/contacts';

export function deleteContact(id: string) {
  return apiFetch<void>(`/api/contacts/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteContact,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: CONTACTS_KEY }),
        client.invalidateQueries({ queryKey: ['lists'] }),
      ]),
  });
}
