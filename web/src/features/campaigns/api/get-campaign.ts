import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CAMPAIGNS_KEY, type Campaign } from './types';

export function getCampaign(id: string, signal?: AbortSignal): Promise<Campaign> {
  return apiFetch<Campaign>(`/api/campaigns/${encodeURIComponent(id)}`, { signal });
}

export function useCampaign(id: string) {
  return useQuery({
    queryKey: [...CAMPAIGNS_KEY, id],
    queryFn: ({ signal }) => getCampaign(id, signal),
    enabled: Boolean(id),
  });
}
