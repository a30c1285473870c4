import { apiFetch } from '@/lib/api-client';
import { campaignPath, useCampaignMutation } from './mutation';

/** Deletes a draft (the server refuses anything else). */
export const deleteCampaign = (id: string) => apiFetch<void>(campaignPath(id), { method: 'DELETE' });

export const useDeleteCampaign = () => useCampaignMutation(deleteCampaign);
