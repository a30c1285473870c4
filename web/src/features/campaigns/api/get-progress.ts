import type { CampaignProgress } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CAMPAIGNS_KEY } from './types';

export type { CampaignProgress };

export function getCampaignProgress(id: string, signal?: AbortSignal) {
  return apiFetch<CampaignProgress>(`/api/campaigns/${encodeURIComponent(id)}/progress`, { signal });
}

/** Live progress, polled every 2 s while the campaign is sending. */
export function useCampaignProgress(id: string, live: boolean) {
  return useQuery({
    queryKey: [...CAMPAIGNS_KEY, id, 'progress'],
    queryFn: ({ signal }) => getCampaignProgress(id, signal),
    refetchInterval: (query) => (query.state.data?.status === 'sending' || (live && !query.state.data) ? 2000 : false),
    enabled: live,
  });
}
