import type { CampaignListItem } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

export type { CampaignListItem };

/** The account's campaigns, most recently updated first. */
export async function listCampaigns(signal?: AbortSignal): Promise<CampaignListItem[]> {
  return (await apiFetch<{ items: CampaignListItem[] }>('/api/campaigns', { signal })).items;
}

/** Whether the account has at least one list / contact (for the onboarding checklist). */
export async function hasAny(path: '/api/lists' | '/api/contacts?limit=1', signal?: AbortSignal): Promise<boolean> {
  const body = await apiFetch<{ items: unknown[] }>(path, { signal });
  return body.items.length > 0;
}
