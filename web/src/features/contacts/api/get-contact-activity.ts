import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CONTACTS_KEY } from '@/lib/queries/contacts';

export interface ContactActivity {
  messages: Array<{
    messageId: number;
    campaignId: string;
    campaignName: string;
    status: string;
    sentAt: string | null;
  }>;
  events: Array<{
    kind: string;
    machine: boolean;
    bounceKind: string | null;
    detail: string | null;
    url: string | null;
    campaignId: string;
    campaignName: string;
    at: string;
  }>;
}

export function getContactActivity(id: string, signal?: AbortSignal) {
  return apiFetch<ContactActivity>(`/api/contacts/${encodeURIComponent(id)}/activity`, { signal });
}

export function useContactActivity(id: string) {
  return useQuery({
    queryKey: [...CONTACTS_KEY, 'activity', id],
    queryFn: ({ signal }) => getContactActivity(id, signal),
  });
}
