import { DEFAULT_TIME_ZONE } from '@carteiro/shared';
import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { ledgerEntries } from './billing.db';
import type { LedgerEntry } from './ledger';

export interface StatementFilter {
  accountId: string;
  /** Inclusive dates (AAAA-MM-DD) in `timeZone`. */
  from?: string;
  to?: string;
  /** Entries with seq below this (the previous page's nextCursor). */
  cursor?: number;
  limit: number;
  timeZone?: string;
}

/** The account's ledger entries, newest first, each with its running balance; nextCursor null on the last page. */
export async function listStatement(
  db: Db,
  filter: StatementFilter,
): Promise<{ entries: LedgerEntry[]; nextCursor: number | null }> {
  const tz = filter.timeZone ?? DEFAULT_TIME_ZONE;
  const conditions: SQL[] = [eq(ledgerEntries.accountId, filter.accountId)];
  if (filter.from)
    conditions.push(gte(ledgerEntries.createdAt, sql`(${filter.from}::date)::timestamp at time zone ${tz}`));
  if (filter.to)
    conditions.push(lt(ledgerEntries.createdAt, sql`(${filter.to}::date + 1)::timestamp at time zone ${tz}`));
  if (filter.cursor) conditions.push(lt(ledgerEntries.seq, filter.cursor));
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(and(...conditions))
    .orderBy(desc(ledgerEntries.seq))
    .limit(filter.limit + 1);
  const entries = rows.slice(0, filter.limit);
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > filter.limit && last ? last.seq : null };
}
