import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CAMPAIGNS_KEY, type CampaignSummary } from './types';

/** Exact recipients (deduplicated, exclusions and suppressions out), cost and balance after sending. */
export function getCampaignSummary(id: string, signal?: AbortSignal): Promise<CampaignSummary> {
  return apiFetch<CampaignSummary>(`/api/campaigns/${encodeURIComponent(id)}/summary`, { signal });
}

export function useCampaignSummary(id: string, enabled = true) {
  return useQuery({
    queryKey: [...CAMPAIGNS_KEY, id, 'summary'],
    queryFn: ({ signal }) => getCampaignSummary(id, signal),
    enabled,
  });
}
