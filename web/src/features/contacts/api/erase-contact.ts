import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CONTACTS_KEY } from '@/lib/queries/contacts';

/** LGPD erase: the contact and its personal data go; a hash of the address stays in the suppression list. */
export function eraseContact(id: string) {
  return apiFetch<{ erased: true }>(`/api/contacts/${encodeURIComponent(id)}/erase`, { method: 'POST', body: {} });
}

export function useEraseContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: eraseContact,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: CONTACTS_KEY }),
        client.invalidateQueries({ queryKey: ['lists'] }),
      ]),
  });
}
