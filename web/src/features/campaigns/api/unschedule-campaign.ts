import { apiFetch } from '@/lib/api-client';
import { campaignPath, useCampaignMutation } from './mutation';
import type { Campaign } from './types';

/** Back to draft. */
export const unscheduleCampaign = (id: string) =>
  apiFetch<Campaign>(campaignPath(id, '/unschedule'), { method: 'POST', body: {} });

export const useUnscheduleCampaign = () => useCampaignMutation(unscheduleCampaign);
