import type { BalanceDto } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

export const BALANCE_QUERY_KEY = ['billing', 'balance'] as const;

/** The current account's balance, price and how many e-mails it pays for. */
export function getBalance(signal?: AbortSignal): Promise<BalanceDto> {
  return apiFetch<BalanceDto>('/api/billing/balance', { signal });
}
