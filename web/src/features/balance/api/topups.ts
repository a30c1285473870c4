import type { TopupDto, TopupReceipt, TopupSummary } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

export type { TopupSummary };

export const TOPUPS_QUERY_KEY = ['billing', 'topups'] as const;
export const topupQueryKey = (id: string) => ['billing', 'topups', id] as const;

/** Creates a Pix top-up: BR Code, QR code, txid and expiry. */
export function createTopup(amountMillis: number): Promise<TopupDto> {
  return apiFetch<TopupDto>('/api/billing/topups', { method: 'POST', body: { amountMillis } });
}

/** One top-up of the account (status refreshed: an unpaid one past its expiry comes back "expired"). */
export function getTopup(id: string, signal?: AbortSignal): Promise<TopupDto> {
  return apiFetch<TopupDto>(`/api/billing/topups/${encodeURIComponent(id)}`, { signal });
}

/** Development only: pays the top-up as a provider would (same credit path on the server). */
export function simulateTopupPayment(id: string): Promise<TopupDto> {
  return apiFetch<TopupDto>(`/api/billing/topups/${encodeURIComponent(id)}/simulate-payment`, { method: 'POST' });
}

/** The account's 50 most recent top-ups. */
export async function listTopups(signal?: AbortSignal): Promise<TopupSummary[]> {
  return (await apiFetch<{ topups: TopupSummary[] }>('/api/billing/topups', { signal })).topups;
}

/** The receipt of a paid top-up (409 `conflict` while unpaid). */
export function getReceipt(id: string, signal?: AbortSignal): Promise<TopupReceipt> {
  return apiFetch<TopupReceipt>(`/api/billing/topups/${encodeURIComponent(id)}/receipt`, { signal });
}
