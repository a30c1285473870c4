import type { ContactCreateInput } from '@carteiro/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CONTACTS_KEY, type Contact } from '@/lib/queries/contacts';

export function createContact(input: ContactCreateInput) {
  return apiFetch<Contact>('/api/contacts', { body: input });
}

export function useCreateContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createContact,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: CONTACTS_KEY }),
        client.invalidateQueries({ queryKey: ['lists'] }),
      ]),
  });
}
