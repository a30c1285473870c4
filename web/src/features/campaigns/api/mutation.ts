import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CAMPAIGNS_KEY } from './types';

/** A mutation that changes a campaign: afterwards the list, the calendar and the campaign itself refresh. */
export function useCampaignMutation<A, R>(fn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: CAMPAIGNS_KEY }) });
}

export const campaignPath = (id: string, action = '') => `/api/campaigns/${encodeURIComponent(id)}${action}`;
