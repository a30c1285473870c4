import type { CampaignStatus } from '../campaign-status';
import type { AccountRole } from '../schemas/account';
import type { TopupStatus } from './billing';

/** Operator back office responses (/api/admin/*): the shapes the server answers and the web reads. */

export type AccountStatus = 'active' | 'suspended';

/** An account with balance, price, status and e-mails charged so far. */
export interface AdminAccount {
  id: string;
  name: string;
  ownerUserId: string;
  ownerEmail: string | null;
  balanceMillis: number;
  priceMillis: number;
  status: AccountStatus;
  emailsSent: number;
  createdAt: string;
}

/** A top-up as the operator sees it: open ones (pending, in review, expired) or, with `?status=paid`, paid ones. */
export interface AdminTopup {
  id: string;
  accountId: string;
  txid: string;
  amountMillis: number;
  status: TopupStatus;
  reviewReason: string | null;
  providerPaymentId: string | null;
  /** What the provider reported for the payment (amount, currency, status), as it arrived. */
  providerReport: unknown;
  chargeProvider: string | null;
  refundedMillis: number;
  paidAt: string | null;
  expiresAt: string;
  createdAt: string;
}

export type TopupRefundStatus = 'processing' | 'done' | 'failed';

/** A refund of (part of) a paid top-up (POST /api/admin/topups/:id/refunds). */
export interface TopupRefundResult {
  id: string;
  topupId: string;
  amountMillis: number;
  status: TopupRefundStatus;
  failureReason: string | null;
  createdAt: string;
}

/** A line of the operators' audit log. */
export interface AuditEntry {
  id: string;
  operatorUserId: string | null;
  operatorEmail: string | null;
  action: string;
  accountId: string | null;
  accountName: string | null;
  targetId: string | null;
  reason: string | null;
  details: unknown;
  createdAt: string;
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
  accountStatus: AccountStatus;
  ownerEmail: string | null;
  campaignId: string;
  campaignName: string;
  campaignStatus: CampaignStatus;
  /** The campaign's counters now: messages accepted by the relay, hard bounces, spam complaints. */
  sent: number;
  bounced: number;
  complained: number;
  /** bounced / sent and complained / sent (0 when nothing was sent yet). */
  bounceRate: number;
  complaintRate: number;
}

/** Someone with the back office: from ADMIN_EMAILS (configuration) or granted the operator role. */
export interface OperatorEntry {
  userId: string | null;
  email: string;
  name: string | null;
  /** `config`: listed in ADMIN_EMAILS (changed only by configuration); `role`: granted in the back office. */
  source: 'config' | 'role';
  grantedAt: string | null;
}

/** A person of an account, as the back office sees them: role, and whether an operator blocked them. */
export interface AdminMember {
  userId: string;
  name: string;
  email: string;
  role: AccountRole;
  disabledAt: string | null;
  disabledReason: string | null;
}

/** POST /api/admin/accounts/:id/suspend|reactivate */
export interface AccountStatusChange {
  ok: true;
  status: AccountStatus;
  changed: boolean;
  pausedCampaignIds: string[];
}
