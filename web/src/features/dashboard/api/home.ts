import { apiFetch } from '@/lib/api-client';

export interface CampaignSummary {
  id: string;
  name: string;
  subject: string;
  status: 'draft' | 'scheduled' | 'sending' | 'paused' | 'sent' | 'cancelled' | 'failed';
  scheduledAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
  counters: { recipients: number; sent: number; opened: number; clicked: number };
}

/** The account's campaigns, most recently updated first. */
export async function listCampaigns(signal?: AbortSignal): Promise<CampaignSummary[]> {
  return (await apiFetch<{ items: CampaignSummary[] }>('/api/campaigns', { signal })).items;
}

/** Whether the account has at least one list / contact (for the onboarding checklist). */
export async function hasAny(path: '/api/lists' | '/api/contacts?limit=1', signal?: AbortSignal): Promise<boolean> {
  const body = await apiFetch<{ items: unknown[] }>(path, { signal });
  return body.items.length > 0;
}
