import type { CampaignCreateInput } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';
import { useCampaignMutation } from './mutation';
import type { Campaign } from './types';

/** Creates a draft; the client generates its uuid (spec §3, §7). */
export function createCampaign(input: CampaignCreateInput): Promise<Campaign> {
  return apiFetch<Campaign>('/api/campaigns', { body: input });
}

export const useCreateCampaign = () => useCampaignMutation(createCampaign);
