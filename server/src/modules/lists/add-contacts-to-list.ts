import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { lists } from './lists.db';

async function requireList(db: Db, accountId: string, listId: string) {
  const [list] = await db
    .select()
    .from(lists)
    .where(and(eq(lists.accountId, accountId), eq(lists.id, listId)));
  if (!list) throw new AppError('not_found', 'Lista não encontrada.');
  return list;
}

function idList(ids: string[]) {
  return sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
}

/**
 * Adds contacts of the account to one of its lists (subscribed; a contact already there keeps its status).
 * Ids of other accounts are ignored. Returns how many memberships were created.
 */
export async function addContactsToList(db: Db, accountId: string, listId: string, ids: string[]): Promise<number> {
  await requireList(db, accountId, listId);
  if (ids.length === 0) return 0;
  const rows = await queryRows<{ contact_id: string }>(
    db,
    sql`insert into list_memberships (list_id, contact_id, status)
        select ${listId}::uuid, c.id, 'subscribed' from contacts c
        where c.account_id = ${accountId} and c.id in (${idList(ids)})
        on conflict do nothing returning contact_id`,
  );
  return rows.length;
}

/** Removes contacts from a list of the account (the contacts stay). */
export async function removeContactsFromList(
  db: Db,
  accountId: string,
  listId: string,
  ids: string[],
): Promise<number> {
  await requireList(db, accountId, listId);
  if (ids.length === 0) return 0;
  const rows = await queryRows<{ contact_id: string }>(
    db,
    sql`delete from list_memberships where list_id = ${listId} and contact_id in (${idList(ids)}) returning contact_id`,
  );
  return rows.length;
}
