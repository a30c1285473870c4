import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CAMPAIGNS_KEY, type Campaign } from './types';

/** The account's campaigns, as the server sorts them (updated_at descending). */
export async function getCampaigns(signal?: AbortSignal): Promise<Campaign[]> {
  return (await apiFetch<{ items: Campaign[] }>('/api/campaigns', { signal })).items;
}

export function useCampaigns() {
  return useQuery({ queryKey: CAMPAIGNS_KEY, queryFn: ({ signal }) => getCampaigns(signal) });
}
