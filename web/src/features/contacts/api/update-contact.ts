import type { ContactUpdateInput } from '@carteiro/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CONTACTS_KEY, type Contact } from '@/lib/queries/contacts';

export function updateContact(id: string, input: ContactUpdateInput) {
  return apiFetch<Contact>(`/api/contacts/${encodeURIComponent(id)}`, { method: 'PATCH', body: input });
}

export function useUpdateContact(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ContactUpdateInput) => updateContact(id, input),
    onSuccess: () => client.invalidateQueries({ queryKey: CONTACTS_KEY }),
  });
}
