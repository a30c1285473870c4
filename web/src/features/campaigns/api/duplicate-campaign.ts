import { apiFetch } from '@/lib/api-client';
import { campaignPath, useCampaignMutation } from './mutation';
import type { Campaign } from './types';

export const duplicateCampaign = (id: string) =>
  apiFetch<Campaign>(campaignPath(id, '/duplicate'), { method: 'POST', body: {} });

export const useDuplicateCampaign = () => useCampaignMutation(duplicateCampaign);
