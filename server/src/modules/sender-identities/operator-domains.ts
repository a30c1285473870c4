import type { AdminSenderDomainRow } from '@carteiro/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import type { Tx } from '../accounts/account-balance';
import { accountDirectory } from '../accounts/account-directory';
import { type OperatorRef, recordAdminAction } from '../billing/record-admin-action';
import { domainStatus } from './sender-identities';
import { senderDomains } from './sender-identities.db';

/** The operator's view of every sender domain, and suspending or restoring one. */

export async function listDomainsForOperator(db: Db, limit = 500): Promise<AdminSenderDomainRow[]> {
  const rows = await db
    .select({ domain: senderDomains, accountName: accountDirectory.name })
    .from(senderDomains)
    .innerJoin(accountDirectory, eq(accountDirectory.id, senderDomains.accountId))
    .orderBy(accountDirectory.name, senderDomains.domain)
    .limit(limit);
  return rows.map(({ domain, accountName }) => ({
    id: domain.id,
    accountId: domain.accountId,
    accountName,
    domain: domain.domain,
    status: domainStatus(domain),
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    suspendedReason: domain.suspendedReason,
  }));
}

/** Suspends (or lifts the suspension of) a sender domain; recorded in the operator audit log. */
export async function setDomainSuspended(
  db: Db,
  operator: OperatorRef,
  id: string,
  suspended: { reason: string } | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(senderDomains)
      .set({ suspendedAt: suspended ? new Date() : null, suspendedReason: suspended?.reason ?? null })
      .where(eq(senderDomains.id, id))
      .returning();
    if (!row) throw notFound('domain');
    await recordAdminAction(tx as unknown as Tx, {
      operator,
      action: suspended ? 'sender_domain.suspend' : 'sender_domain.unsuspend',
      accountId: row.accountId,
      targetId: row.id,
      reason: suspended?.reason ?? null,
      details: { domain: row.domain },
    });
  });
}
