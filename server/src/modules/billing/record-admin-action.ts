import type { Tx } from '../accounts/account-balance';
import { adminAuditLog } from './billing.db';

export interface OperatorRef {
  userId: string;
  email?: string | null;
}

export interface AdminAction {
  operator: OperatorRef;
  action: string;
  accountId?: string | null;
  targetId?: string | null;
  reason?: string | null;
  details?: Record<string, unknown>;
}

/** Appends one row to admin_audit_log, in the caller's transaction (so the action and its record commit together). */
export async function recordAdminAction(tx: Tx, action: AdminAction): Promise<void> {
  await tx.insert(adminAuditLog).values({
    operatorUserId: action.operator.userId,
    operatorEmail: action.operator.email ?? null,
    action: action.action,
    accountId: action.accountId ?? null,
    targetId: action.targetId ?? null,
    reason: action.reason ?? null,
    details: action.details ?? null,
  });
}
