import type { ListCreateInput, ListView } from '@carteiro/shared';
import type { Db } from '../../db/database';
import { lists } from './lists.db';

export async function createList(db: Db, accountId: string, input: ListCreateInput): Promise<ListView> {
  const [row] = await db
    .insert(lists)
    .values({ accountId, name: input.name, description: input.description ?? null, optIn: input.optIn ?? 'single' })
    .returning();
  if (!row) throw new Error('list insert returned nothing');
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    optIn: row.optIn,
    contactCount: 0,
    subscribedCount: 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
