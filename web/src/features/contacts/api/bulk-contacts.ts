import type { ContactBulkInput, ContactBulkResult } from '@carteiro/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CONTACTS_KEY } from '@/lib/queries/contacts';

export function bulkContacts(input: ContactBulkInput) {
  return apiFetch<ContactBulkResult>('/api/contacts/bulk', { body: input });
}

export function useBulkContacts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: bulkContacts,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: CONTACTS_KEY }),
        client.invalidateQueries({ queryKey: ['lists'] }),
      ]),
  });
}
