import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { accounts } from './accounts.db';

/** A database handle or an open transaction on it. */
export type Tx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface BillingAccount {
  id: string;
  priceMillis: number;
  balanceMillis: number;
  status: 'active' | 'suspended';
}

/**
 * Adds `deltaMillis` (negative = debit) to the account's balance in one conditional UPDATE and returns the new
 * balance, or null when the debit would take it below zero (or the account does not exist). The only writer of
 * `accounts.balance_millis`: call it inside the transaction that appends the matching ledger entry.
 */
export async function adjustAccountBalance(tx: Tx, accountId: string, deltaMillis: number): Promise<number | null> {
  if (!Number.isSafeInteger(deltaMillis)) throw new RangeError('deltaMillis must be a safe integer');
  const [row] = await tx
    .update(accounts)
    .set({ balanceMillis: sql`${accounts.balanceMillis} + ${deltaMillis}`, updatedAt: sql`now()` })
    .where(sql`${accounts.id} = ${accountId} and ${accounts.balanceMillis} + ${deltaMillis} >= 0`)
    .returning({ balanceMillis: accounts.balanceMillis });
  return row ? Number(row.balanceMillis) : null;
}

/** Locks the account row (SELECT … FOR UPDATE) for the rest of the transaction; null when it does not exist. */
export async function lockBillingAccount(tx: Tx, accountId: string): Promise<BillingAccount | null> {
  const [row] = await tx
    .select({
      id: accounts.id,
      priceMillis: accounts.priceMillis,
      balanceMillis: accounts.balanceMillis,
      status: accounts.status,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('update');
  return row ? { ...row, balanceMillis: Number(row.balanceMillis) } : null;
}

/** Reads the account's price, balance and status (no lock); null when it does not exist. */
export async function findBillingAccount(db: Tx, accountId: string): Promise<BillingAccount | null> {
  const [row] = await db
    .select({
      id: accounts.id,
      priceMillis: accounts.priceMillis,
      balanceMillis: accounts.balanceMillis,
      status: accounts.status,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row ? { ...row, balanceMillis: Number(row.balanceMillis) } : null;
}
