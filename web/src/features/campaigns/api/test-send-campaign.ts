import { apiFetch } from '@/lib/api-client';
import { campaignPath } from './mutation';

/** Sends the rendered campaign (or one A/B variant: 1 = B…), "[TESTE]" in the subject, to up to 5 addresses. */
export const testSendCampaign = (id: string, emails: string[], contactId?: string, variant?: number) =>
  apiFetch<{ sent: number }>(campaignPath(id, '/test-send'), {
    body: { emails, ...(contactId ? { contactId } : {}), ...(variant ? { variant } : {}) },
  });
