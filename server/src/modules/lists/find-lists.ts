import type { ListQuery, ListView } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { afterKeysetCursorSql, cursorTimestampSql, keysetPage } from '../../db/keyset';
import { containsPattern } from '../../db/like';
import { notFound } from '../../http/not-found';
import { foldListCounts, LIST_COUNT_FOLD_AT, listCountsSql } from './list-counts';

interface RawList {
  id: string;
  name: string;
  description: string | null;
  opt_in: 'single' | 'double';
  contact_count: number | string;
  subscribed_count: number | string;
  count_rows: number | string;
  created_at: string | Date;
  updated_at: string | Date;
  cursor_at: string;
}

function toView(row: RawList): ListView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    optIn: row.opt_in,
    contactCount: Number(row.contact_count),
    subscribedCount: Number(row.subscribed_count),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function listsQuery(accountId: string, listId?: string, page?: ListQuery) {
  const limit = page?.limit ?? 50;
  return sql`select l.id, l.name, l.description, l.opt_in, l.created_at, l.updated_at,
      ${cursorTimestampSql(sql`l.created_at`)} as cursor_at,
      counts.contact_count, counts.subscribed_count, counts.count_rows
    from lists l ${listCountsSql} where l.account_id = ${accountId} ${listId ? sql`and l.id = ${listId}` : sql``}
      ${page?.search ? sql`and l.name ilike ${containsPattern(page.search)}` : sql``}
      ${page?.cursor ? sql`and ${afterKeysetCursorSql(sql`l.created_at`, sql`l.id`, page.cursor)}` : sql``}
    order by l.created_at desc, l.id desc
    ${page ? sql`limit ${limit + 1}` : sql``}`;
}

/** Lists whose count rows piled up are folded after the read (the counts read are already right). */
async function foldPiledUp(db: Db, rows: RawList[]): Promise<void> {
  await foldListCounts(
    db,
    rows.filter((r) => Number(r.count_rows) > LIST_COUNT_FOLD_AT).map((r) => r.id),
  );
}

/** One page of the account's lists, newest first, filtered by a part of the name, with their counts. */
export async function findListPage(
  db: Db,
  accountId: string,
  query: ListQuery,
): Promise<{ items: ListView[]; nextCursor: string | null }> {
  const rows = await queryRows<RawList>(db, listsQuery(accountId, undefined, query));
  await foldPiledUp(db, rows);
  const page = keysetPage(rows, query.limit ?? 50);
  return { items: page.rows.map(toView), nextCursor: page.nextCursor };
}

/** The account's lists, newest first, with member and subscribed counts (list-counts.ts). */
export async function findLists(db: Db, accountId: string): Promise<ListView[]> {
  const rows = await queryRows<RawList>(db, listsQuery(accountId));
  await foldPiledUp(db, rows);
  return rows.map(toView);
}

/** One list of the account; 404 when it is not the account's. */
export async function findList(db: Db, accountId: string, listId: string): Promise<ListView> {
  const [row] = await queryRows<RawList>(db, listsQuery(accountId, listId));
  if (!row) throw notFound('list');
  await foldPiledUp(db, [row]);
  return toView(row);
}
