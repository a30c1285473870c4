import type { CampaignUpdateInput } from '@carteiro/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { campaignPath } from './mutation';
import { CAMPAIGNS_KEY, type Campaign } from './types';

export function updateCampaign(id: string, input: CampaignUpdateInput): Promise<Campaign> {
  return apiFetch<Campaign>(campaignPath(id), { method: 'PATCH', body: input });
}

export function useUpdateCampaign(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CampaignUpdateInput) => updateCampaign(id, input),
    onSuccess: (campaign) => {
      client.setQueryData([...CAMPAIGNS_KEY, id], campaign);
      return client.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
    },
  });
}
