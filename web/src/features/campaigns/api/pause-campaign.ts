import { apiFetch } from '@/lib/api-client';
import { campaignPath, useCampaignMutation } from './mutation';

export const pauseCampaign = (id: string) =>
  apiFetch<unknown>(campaignPath(id, '/pause'), { method: 'POST', body: {} });

export const usePauseCampaign = () => useCampaignMutation(pauseCampaign);
