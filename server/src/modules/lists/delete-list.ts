import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { lists } from './lists.db';

/** Deletes a list and its memberships; the contacts stay in the account. */
export async function deleteList(db: Db, accountId: string, listId: string): Promise<void> {
  const deleted = await db
    .delete(lists)
    .where(and(eq(lists.accountId, accountId), eq(lists.id, listId)))
    .returning({ id: lists.id });
  if (deleted.length === 0) throw new AppError('not_found', 'Lista não encontrada.');
}
