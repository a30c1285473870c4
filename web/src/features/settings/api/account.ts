import type { AccountUpdateInput, AccountView } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

/** Merges the changes into the current account (owners and admins); answers the reloaded account. */
export async function updateAccount(input: Record<keyof AccountUpdateInput, unknown>): Promise<AccountView> {
  return (await apiFetch<{ account: AccountView }>('/api/account', { method: 'PATCH', body: input })).account;
}
