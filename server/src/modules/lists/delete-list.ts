import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import { lists } from './lists.db';

/** Deletes a list and its memberships; the contacts stay in the account. */
export async function deleteList(db: Db, accountId: string, listId: string): Promise<void> {
  const deleted = await db
    .delete(lists)
    .where(and(eq(lists.accountId, accountId), eq(lists.id, listId)))
    .returning({ id: lists.id });
  if (deleted.length === 0) throw notFound('list');
}
