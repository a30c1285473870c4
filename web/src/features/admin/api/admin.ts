import type {
  AccountStatusChange,
  AdminAccount,
  AdminMember,
  AdminTopup,
  AuditEntry,
  CampaignAlert,
  OperatorEntry,
  TopupRefundResult,
} from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

export type { AdminAccount, AdminMember, AdminTopup, AuditEntry, CampaignAlert, OperatorEntry, TopupRefundResult };

export const ADMIN_QUERY_KEY = ['admin'] as const;

export async function listAdminAccounts(signal?: AbortSignal): Promise<AdminAccount[]> {
  return (await apiFetch<{ accounts: AdminAccount[] }>('/api/admin/accounts', { signal })).accounts;
}

export function adjustBalance(accountId: string, input: { amountMillis: number; reason: string }): Promise<unknown> {
  return apiFetch(`/api/admin/accounts/${accountId}/adjustments`, { method: 'POST', body: input });
}

export function setPrice(accountId: string, input: { priceMillis: number; reason?: string }): Promise<unknown> {
  return apiFetch(`/api/admin/accounts/${accountId}/price`, { method: 'PUT', body: input });
}

export function setStatus(
  accountId: string,
  action: 'suspend' | 'reactivate',
  reason: string,
): Promise<AccountStatusChange> {
  return apiFetch(`/api/admin/accounts/${accountId}/${action}`, { method: 'POST', body: { reason } });
}

export async function listPendingTopups(signal?: AbortSignal): Promise<AdminTopup[]> {
  return (await apiFetch<{ topups: AdminTopup[] }>('/api/admin/topups', { signal })).topups;
}

/** Paid top-ups (the 200 most recent), for refunds. */
export async function listPaidTopups(signal?: AbortSignal): Promise<AdminTopup[]> {
  return (await apiFetch<{ topups: AdminTopup[] }>('/api/admin/topups?status=paid', { signal })).topups;
}

/** Refunds (part of) a paid top-up through its provider; the same requestKey twice is one refund. */
export function refundTopup(
  id: string,
  body: { amountMillis: number; reason: string; requestKey: string },
): Promise<TopupRefundResult> {
  return apiFetch<TopupRefundResult>(`/api/admin/topups/${id}/refunds`, { method: 'POST', body });
}

export function confirmTopup(id: string, reason?: string): Promise<unknown> {
  return apiFetch(`/api/admin/topups/${id}/confirm`, { method: 'POST', body: reason ? { reason } : {} });
}

export async function listAuditLog(signal?: AbortSignal): Promise<AuditEntry[]> {
  return (await apiFetch<{ entries: AuditEntry[] }>('/api/admin/audit-log', { signal })).entries;
}

export async function listCampaignAlerts(includeReviewed: boolean, signal?: AbortSignal): Promise<CampaignAlert[]> {
  const url = `/api/admin/campaign-alerts${includeReviewed ? '?all=1' : ''}`;
  return (await apiFetch<{ alerts: CampaignAlert[] }>(url, { signal })).alerts;
}

export function reviewCampaignAlert(id: number, note?: string): Promise<unknown> {
  return apiFetch(`/api/admin/campaign-alerts/${id}/review`, { method: 'POST', body: note ? { note } : {} });
}

export async function listOperators(signal?: AbortSignal): Promise<OperatorEntry[]> {
  return (await apiFetch<{ operators: OperatorEntry[] }>('/api/admin/operators', { signal })).operators;
}

export function grantOperator(input: { email: string; reason: string }): Promise<unknown> {
  return apiFetch('/api/admin/operators', { method: 'POST', body: input });
}

export function revokeOperator(userId: string, reason: string): Promise<unknown> {
  return apiFetch(`/api/admin/operators/${encodeURIComponent(userId)}`, { method: 'DELETE', body: { reason } });
}

export async function listAccountMembers(accountId: string, signal?: AbortSignal): Promise<AdminMember[]> {
  return (await apiFetch<{ members: AdminMember[] }>(`/api/admin/accounts/${accountId}/members`, { signal })).members;
}

/** Blocks (every session ends, no sign-in) or unblocks a user; audited with the reason. */
export function setUserAccess(
  userId: string,
  action: 'disable' | 'enable',
  reason: string,
): Promise<{ changed: boolean }> {
  return apiFetch(`/api/admin/users/${encodeURIComponent(userId)}/${action}`, { method: 'POST', body: { reason } });
}
