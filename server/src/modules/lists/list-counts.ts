import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';

/**
 * How many delta rows a list may pile up before a read folds them into one: summing a few hundred rows costs
 * nothing next to the page; an import of 1M contacts in batches of 1,000 appends a thousand.
 */
export const LIST_COUNT_FOLD_AT = 500;

/**
 * A list's member and subscribed counts, as a sub-select over alias `l` (lists): the sums of its delta rows
 * (lists.db.ts list_count_deltas), and how many rows there were (`count_rows`, for foldListCounts).
 */
export const listCountsSql = sql`left join lateral (
    select coalesce(sum(d.members), 0)::int as contact_count, coalesce(sum(d.subscribed), 0)::int as subscribed_count,
           count(*)::int as count_rows
      from list_count_deltas d where d.list_id = l.id) counts on true`;

/**
 * Folds each list's delta rows into one row of their sums, in one statement: rows a concurrent writer appends
 * meanwhile are not yet visible to it and stay as they are, so the sums never change.
 */
export async function foldListCounts(db: Db, listIds: string[]): Promise<void> {
  if (listIds.length === 0) return;
  await db.execute(
    sql`with gone as (
          delete from list_count_deltas where list_id = any(${pgTextArray(listIds)}::uuid[])
          returning list_id, members, subscribed)
        insert into list_count_deltas (list_id, members, subscribed)
        select list_id, sum(members), sum(subscribed) from gone group by list_id`,
  );
}
