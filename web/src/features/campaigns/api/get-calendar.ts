import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CAMPAIGNS_KEY, type Campaign } from './types';

/** Campaigns scheduled or sent between two instants (the calendar's visible range). */
export async function getCalendar(from: string, to: string, signal?: AbortSignal): Promise<Campaign[]> {
  const query = new URLSearchParams({ from, to });
  return (await apiFetch<{ items: Campaign[] }>(`/api/campaigns/calendar?${query}`, { signal })).items;
}

export function useCalendar(range: { from: string; to: string } | null) {
  return useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'calendar', range],
    queryFn: ({ signal }) => getCalendar(range?.from ?? '', range?.to ?? '', signal),
    enabled: Boolean(range),
  });
}
