import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { lockBillingAccount } from '../accounts/account-balance';
import { accounts } from '../accounts/accounts.db';
import { authUsers } from '../auth/auth.db';
import { adminAuditLog } from './billing.db';
import { type OperatorRef, recordAdminAction } from './record-admin-action';

export interface AdminAccountRow {
  id: string;
  name: string;
  ownerUserId: string;
  ownerEmail: string | null;
  balanceMillis: number;
  priceMillis: number;
  status: 'active' | 'suspended';
  emailsSent: number;
  createdAt: Date;
}

/** Every account with balance, price, status and e-mails charged so far (operator back office), newest first. */
export async function listAccountsForOperator(db: Db, limit = 500): Promise<AdminAccountRow[]> {
  const rows = await db
    .select({
      id: accounts.id,
      name: accounts.name,
      ownerUserId: accounts.ownerUserId,
      ownerEmail: authUsers.email,
      balanceMillis: accounts.balanceMillis,
      priceMillis: accounts.priceMillis,
      status: accounts.status,
      createdAt: accounts.createdAt,
      emailsSent: sql<number>`coalesce((select sum(email_count) from ledger_entries l
        where l.account_id = ${accounts.id} and l.kind = 'send'), 0)::int`,
    })
    .from(accounts)
    // The owner's e-mail lives in the auth module's users table; read-only here.
    .leftJoin(authUsers, eq(authUsers.id, accounts.ownerUserId))
    .orderBy(desc(accounts.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, balanceMillis: Number(r.balanceMillis), emailsSent: Number(r.emailsSent) }));
}

/** Sets the account's negotiated price per e-mail (audited); affects reservations made from now on. */
export async function setNegotiatedPrice(
  db: Db,
  input: { accountId: string; priceMillis: number; reason?: string | null; operator: OperatorRef },
): Promise<void> {
  await db.transaction(async (tx) => {
    const account = await lockBillingAccount(tx, input.accountId);
    if (!account) throw new AppError('not_found', 'Conta não encontrada.');
    await tx
      .update(accounts)
      .set({ priceMillis: input.priceMillis, updatedAt: sql`now()` })
      .where(eq(accounts.id, input.accountId));
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'account.price',
      accountId: input.accountId,
      reason: input.reason ?? null,
      details: { from: account.priceMillis, to: input.priceMillis },
    });
  });
}

/** Suspends or reactivates an account (audited). A suspended account cannot reserve, so cannot send. */
export async function setAccountStatus(
  db: Db,
  input: { accountId: string; status: 'active' | 'suspended'; reason: string; operator: OperatorRef },
): Promise<void> {
  await db.transaction(async (tx) => {
    const account = await lockBillingAccount(tx, input.accountId);
    if (!account) throw new AppError('not_found', 'Conta não encontrada.');
    if (account.status === input.status) return;
    await tx
      .update(accounts)
      .set({ status: input.status, updatedAt: sql`now()` })
      .where(eq(accounts.id, input.accountId));
    await recordAdminAction(tx, {
      operator: input.operator,
      action: input.status === 'suspended' ? 'account.suspend' : 'account.reactivate',
      accountId: input.accountId,
      reason: input.reason,
    });
  });
}

/** The newest operator actions. */
export async function listAdminAuditLog(db: Db, limit = 200) {
  return db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.createdAt)).limit(limit);
}
