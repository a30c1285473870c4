import type { AdminAccount } from '@carteiro/shared';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import { lockBillingAccount, setBillingTerms } from '../accounts/account-balance';
import { accountDirectory } from '../accounts/account-directory';
import { adminAuditLog } from './billing.db';
import { type OperatorRef, recordAdminAction } from './record-admin-action';

/** The shared `AdminAccount` answer as the server holds it, with its creation time as a date. */
export type AdminAccountRow = Omit<AdminAccount, 'createdAt'> & { createdAt: Date };

/** Every account with balance, price, status and e-mails charged so far (operator back office), newest first. */
export async function listAccountsForOperator(db: Db, limit = 500): Promise<AdminAccountRow[]> {
  const rows = await db
    .select({
      id: accountDirectory.id,
      name: accountDirectory.name,
      ownerUserId: accountDirectory.ownerUserId,
      ownerEmail: accountDirectory.ownerEmail,
      balanceMillis: accountDirectory.balanceMillis,
      priceMillis: accountDirectory.priceMillis,
      status: accountDirectory.status,
      createdAt: accountDirectory.createdAt,
      emailsSent: sql<number>`coalesce((select sum(email_count) from ledger_entries l
        where l.account_id = ${accountDirectory.id} and l.kind = 'send'), 0)::int`,
    })
    .from(accountDirectory)
    .orderBy(desc(accountDirectory.createdAt))
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
    if (!account) throw notFound('account');
    await setBillingTerms(tx, input.accountId, { priceMillis: input.priceMillis });
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'account.price',
      accountId: input.accountId,
      reason: input.reason ?? null,
      details: { from: account.priceMillis, to: input.priceMillis },
    });
  });
}

/** The newest operator actions, with the account's name. */
export async function listAdminAuditLog(db: Db, limit = 200) {
  return db
    .select({
      id: adminAuditLog.id,
      operatorUserId: adminAuditLog.operatorUserId,
      operatorEmail: adminAuditLog.operatorEmail,
      action: adminAuditLog.action,
      accountId: adminAuditLog.accountId,
      accountName: accountDirectory.name,
      targetId: adminAuditLog.targetId,
      reason: adminAuditLog.reason,
      details: adminAuditLog.details,
      createdAt: adminAuditLog.createdAt,
    })
    .from(adminAuditLog)
    .leftJoin(accountDirectory, eq(accountDirectory.id, adminAuditLog.accountId))
    .orderBy(desc(adminAuditLog.createdAt))
    .limit(limit);
}
