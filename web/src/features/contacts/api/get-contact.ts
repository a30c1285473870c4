import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CONTACTS_KEY, type ContactDetail } from '@/lib/queries/contacts';

export function getContact(id: string, signal?: AbortSignal) {
  return apiFetch<ContactDetail>(`/api/contacts/${encodeURIComponent(id)}`, { signal });
}

export function useContact(id: string | null) {
  return useQuery({
    queryKey: [...CONTACTS_KEY, 'one', id],
    queryFn: ({ signal }) => getContact(id as string, signal),
    enabled: Boolean(id),
  });
}
