import type { CampaignReport } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CAMPAIGNS_KEY } from './types';

export type { CampaignReport };

export function getCampaignReport(id: string, signal?: AbortSignal) {
  return apiFetch<CampaignReport>(`/api/campaigns/${encodeURIComponent(id)}/report`, { signal });
}

/** The report, refreshed every 5 s while the campaign is sending (so it keeps up with the progress card), else 30 s. */
export function useCampaignReport(id: string, enabled: boolean, sending = false) {
  return useQuery({
    queryKey: [...CAMPAIGNS_KEY, id, 'report'],
    queryFn: ({ signal }) => getCampaignReport(id, signal),
    enabled,
    refetchInterval: sending ? 5_000 : 30_000,
  });
}

export function reportCsvUrl(id: string) {
  return `/api/campaigns/${encodeURIComponent(id)}/report.csv`;
}
