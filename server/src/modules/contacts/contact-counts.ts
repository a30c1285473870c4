import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';

/**
 * How many delta rows an account may pile up before a read folds them into one: summing a few hundred rows costs
 * nothing next to the read; an import of 1M contacts in batches of 1,000 appends a thousand.
 */
export const CONTACT_COUNT_FOLD_AT = 500;

/**
 * The account's contacts (`contacts`) and how many delta rows say so (`count_rows`, for foldContactCounts), as one
 * sub-select of a row: the sums of contact_count_deltas, kept by the triggers on contacts (migration 0065). A read
 * of a few rows where counting the contacts read every one of them (~270 ms at 1M on a slow machine, linear).
 */
export function accountContactCountSql(accountId: string): SQL {
  return sql`(select coalesce(sum(d.contacts), 0)::bigint as contacts, count(*)::int as count_rows
                from contact_count_deltas d where d.account_id = ${accountId}::uuid)`;
}

/**
 * Folds the account's delta rows into one row of their sum, in one statement: rows a concurrent writer appends
 * meanwhile are not yet visible to it and stay as they are, so the sum never changes.
 */
export async function foldContactCounts(db: Db, accountId: string): Promise<void> {
  await db.execute(
    sql`with gone as (
          delete from contact_count_deltas where account_id = ${accountId}::uuid returning account_id, contacts)
        insert into contact_count_deltas (account_id, contacts)
        select account_id, sum(contacts) from gone group by account_id`,
  );
}
