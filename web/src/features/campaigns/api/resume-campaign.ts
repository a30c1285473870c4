import { apiFetch } from '@/lib/api-client';
import { campaignPath, useCampaignMutation } from './mutation';

export const resumeCampaign = (id: string) =>
  apiFetch<unknown>(campaignPath(id, '/resume'), { method: 'POST', body: {} });

export const useResumeCampaign = () => useCampaignMutation(resumeCampaign);
