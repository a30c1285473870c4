import { eq, type SQL, sql } from 'drizzle-orm';
import { asDb, type DbOrTx, queryRowsNamed } from '../../db/database';
import { accounts } from './accounts.db';

/** A database handle or an open transaction on it. */
export type Tx = DbOrTx;

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

/**
 * The same conditional balance change as `adjustAccountBalance`, as an `UPDATE … RETURNING balance_millis` to put
 * in a CTE of the caller's statement (billing/ledger.ts's one-statement append, the transactional commit): no row
 * when the debit would take the balance below zero, or when `onlyIf` (a condition of the caller's statement) is
 * false. This module stays the only writer of `accounts.balance_millis`.
 */
export function adjustAccountBalanceSql(accountId: string, deltaMillis: number, onlyIf: SQL = sql`true`): SQL {
  if (!Number.isSafeInteger(deltaMillis)) throw new RangeError('deltaMillis must be a safe integer');
  return sql`update ${accounts} set balance_millis = balance_millis + ${deltaMillis}::bigint, updated_at = now()
              where id = ${accountId}::uuid and balance_millis + ${deltaMillis}::bigint >= 0 and (${onlyIf})
          returning balance_millis`;
}

/**
 * Whether the account's balance is now below `thresholdMillis`, as a condition to fold into the caller's statement
 * (the low-balance sweep's candidates): one primary-key probe per row it tests.
 */
export function balanceBelowSql(accountId: SQL, thresholdMillis: SQL | number): SQL {
  return sql`exists (select 1 from ${accounts}
                      where ${accounts.id} = ${accountId} and ${accounts.balanceMillis} < ${thresholdMillis})`;
}

/**
 * Locks the account row (SELECT … FOR UPDATE) for the rest of the transaction; null when it does not exist.
 * A named prepared statement (ADR 0019): it runs in every charge, including each group commit of single sends.
 */
export async function lockBillingAccount(tx: Tx, accountId: string): Promise<BillingAccount | null> {
  const [row] = await queryRowsNamed<{
    id: string;
    price_millis: number;
    balance_millis: number | string;
    status: BillingAccount['status'];
  }>(
    asDb(tx),
    'billing_lock_account',
    sql`select ${accounts.id} as id, ${accounts.priceMillis} as price_millis,
               ${accounts.balanceMillis} as balance_millis, ${accounts.status} as status
          from ${accounts} where ${accounts.id} = ${accountId} for update`,
  );
  return row
    ? {
        id: row.id,
        priceMillis: Number(row.price_millis),
        balanceMillis: Number(row.balance_millis),
        status: row.status,
      }
    : null;
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

/**
 * The account's status under a share lock held for the rest of the caller's transaction (an operator's suspension,
 * which locks the row FOR UPDATE, waits for it); null when the account does not exist.
 */
export async function shareLockAccountStatus(tx: Tx, accountId: string): Promise<BillingAccount['status'] | null> {
  const [row] = await tx
    .select({ status: accounts.status })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('share');
  return row?.status ?? null;
}

/**
 * The operator's changes to an account's terms (back office, audited by the caller in the same transaction): the
 * negotiated price per e-mail, or active/suspended. The balance is never set here (`adjustAccountBalance`).
 */
export async function setBillingTerms(
  tx: Tx,
  accountId: string,
  terms: { priceMillis: number } | { status: BillingAccount['status'] },
): Promise<void> {
  await tx
    .update(accounts)
    .set({ ...terms, updatedAt: sql`now()` })
    .where(eq(accounts.id, accountId));
}
