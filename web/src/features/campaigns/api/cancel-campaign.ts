import { apiFetch } from '@/lib/api-client';
import { campaignPath, useCampaignMutation } from './mutation';

/** Stops the send; the unused reservation goes back to the balance. */
export const cancelCampaign = (id: string) =>
  apiFetch<unknown>(campaignPath(id, '/cancel'), { method: 'POST', body: {} });

export const useCancelCampaign = () => useCampaignMutation(cancelCampaign);
