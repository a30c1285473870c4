import { apiFetch } from '@/lib/api-client';
import { campaignPath, useCampaignMutation } from './mutation';

/** Starts sending now: the server reserves recipients × price on the ledger or refuses in pt-BR. */
export const sendCampaign = (id: string) => apiFetch<unknown>(campaignPath(id, '/send'), { method: 'POST', body: {} });

export const useSendCampaign = () => useCampaignMutation(sendCampaign);
