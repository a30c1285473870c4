import type { ContactActivity } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CONTACTS_KEY } from '@/lib/queries/contacts';

export type { ContactActivity };

export function getContactActivity(id: string, signal?: AbortSignal) {
  return apiFetch<ContactActivity>(`/api/contacts/${encodeURIComponent(id)}/activity`, { signal });
}

export function useContactActivity(id: string) {
  return useQuery({
    queryKey: [...CONTACTS_KEY, 'activity', id],
    queryFn: ({ signal }) => getContactActivity(id, signal),
  });
}
