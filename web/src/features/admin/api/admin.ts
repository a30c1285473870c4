import { apiFetch } from '@/lib/api-client';

export interface AdminAccount {
  id: string;
  name: string;
  ownerUserId: string;
  ownerEmail: string | null;
  balanceMillis: number;
  priceMillis: number;
  status: 'active' | 'suspended';
  emailsSent: number;
  createdAt: string;
}

export interface AdminTopup {
  id: string;
  accountId: string;
  txid: string;
  amountMillis: number;
  status: 'pending' | 'review' | 'expired';
  reviewReason: string | null;
  expiresAt: string;
  createdAt: string;
}

export interface AuditEntry {
  id: string;
  operatorEmail?: string | null;
  action: string;
  accountId: string | null;
  accountName?: string | null;
  targetId?: string | null;
  reason?: string | null;
  details?: unknown;
  createdAt: string;
  [field: string]: unknown;
}

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
): Promise<{ ok: true; status: 'active' | 'suspended'; changed: boolean; pausedCampaignIds: string[] }> {
  return apiFetch(`/api/admin/accounts/${accountId}/${action}`, { method: 'POST', body: { reason } });
}

export async function listPendingTopups(signal?: AbortSignal): Promise<AdminTopup[]> {
  return (await apiFetch<{ topups: AdminTopup[] }>('/api/admin/topups', { signal })).topups;
}

export interface PaidTopup {
  id: string;
  accountId: string;
  txid: string;
  amountMillis: number;
  refundedMillis: number;
  chargeProvider: string | null;
  paidAt: string | null;
}

/** Paid top-ups (the 200 most recent), for refunds. */
export async function listPaidTopups(signal?: AbortSignal): Promise<PaidTopup[]> {
  return (await apiFetch<{ topups: PaidTopup[] }>('/api/admin/topups?status=paid', { signal })).topups;
}

export interface TopupRefundResult {
  id: string;
  amountMillis: number;
  status: 'processing' | 'done' | 'failed';
  failureReason: string | null;
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

export type CampaignAlertKind = 'hard_bounce_rate' | 'complaint_rate' | 'policy_rejection';

/** A campaign flagged for the operator: paused by bounce/complaint protection, or a policy rejection. */
export interface CampaignAlert {
  id: number;
  kind: CampaignAlertKind;
  reason: string;
  createdAt: string;
  acknowledgedAt: string | null;
  accountId: string;
  accountName: string;
  accountStatus: 'active' | 'suspended';
  ownerEmail: string | null;
  campaignId: string;
  campaignName: string;
  campaignStatus: 'draft' | 'scheduled' | 'sending' | 'paused' | 'sent' | 'cancelled' | 'failed';
  sent: number;
  bounced: number;
  complained: number;
  bounceRate: number;
  complaintRate: number;
}

export async function listCampaignAlerts(includeReviewed: boolean, signal?: AbortSignal): Promise<CampaignAlert[]> {
  const url = `/api/admin/campaign-alerts${includeReviewed ? '?all=1' : ''}`;
  return (await apiFetch<{ alerts: CampaignAlert[] }>(url, { signal })).alerts;
}

export function reviewCampaignAlert(id: number, note?: string): Promise<unknown> {
  return apiFetch(`/api/admin/campaign-alerts/${id}/review`, { method: 'POST', body: note ? { note } : {} });
}

/** Someone with the back office: from ADMIN_EMAILS (configuration) or granted the operator role. */
export interface OperatorEntry {
  userId: string | null;
  email: string;
  name: string | null;
  source: 'config' | 'role';
  grantedAt: string | null;
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

/** A person of an account, as the back office sees them: role, and whether an operator blocked them. */
export interface AdminMember {
  userId: string;
  name: string;
  email: string;
  role: 'owner' | 'admin' | 'member';
  disabledAt: string | null;
  disabledReason: string | null;
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
