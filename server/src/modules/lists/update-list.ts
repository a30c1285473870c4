import type { ListUpdateInput, ListView } from '@carteiro/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import { findList } from './find-lists';
import { lists } from './lists.db';

export async function updateList(db: Db, accountId: string, listId: string, input: ListUpdateInput): Promise<ListView> {
  const patch: Partial<typeof lists.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) patch.name = input.name;
  if (input.description !== undefined) patch.description = input.description;
  if (input.optIn !== undefined) patch.optIn = input.optIn;
  const [row] = await db
    .update(lists)
    .set(patch)
    .where(and(eq(lists.accountId, accountId), eq(lists.id, listId)))
    .returning({ id: lists.id });
  if (!row) throw notFound('list');
  return findList(db, accountId, listId);
}
