import { desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { topups } from './billing.db';
import type { Topup } from './credit-topup';

/** The account's latest 50 top-ups, newest first ("Meu saldo"). */
export async function listAccountTopups(db: Db, accountId: string): Promise<Topup[]> {
  return db.select().from(topups).where(eq(topups.accountId, accountId)).orderBy(desc(topups.createdAt)).limit(50);
}

/**
 * Every account's top-ups for the operator's review, newest first (200 at most): 'open' are those still to be
 * paid, looked at or expired; 'paid' those credited.
 */
export async function listTopupsForOperator(db: Db, status: 'open' | 'paid'): Promise<Topup[]> {
  return db
    .select()
    .from(topups)
    .where(status === 'paid' ? eq(topups.status, 'paid') : inArray(topups.status, ['pending', 'review', 'expired']))
    .orderBy(desc(topups.createdAt))
    .limit(200);
}
