import type { ResendNonOpenersInput } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';
import { campaignPath, useCampaignMutation } from './mutation';
import type { Campaign } from './types';

export const resendNonOpeners = ({ id, ...input }: ResendNonOpenersInput & { id: string }) =>
  apiFetch<Campaign>(campaignPath(id, '/resend-non-openers'), { method: 'POST', body: input });

export const useResendNonOpeners = () => useCampaignMutation(resendNonOpeners);
