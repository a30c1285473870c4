import { apiFetch } from '@/lib/api-client';
import { campaignPath, useCampaignMutation } from './mutation';
import type { Campaign } from './types';

/** `scheduledAt`: ISO with offset, or local `YYYY-MM-DDTHH:mm` read in the account's time zone. */
export const scheduleCampaign = (id: string, scheduledAt: string) =>
  apiFetch<Campaign>(campaignPath(id, '/schedule'), { body: { scheduledAt } });

export const useScheduleCampaign = () =>
  useCampaignMutation(({ id, scheduledAt }: { id: string; scheduledAt: string }) => scheduleCampaign(id, scheduledAt));
