import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { contacts } from './contacts.db';

/** Deletes contacts of the account (memberships go with them); ids of other accounts are ignored. */
export async function deleteContacts(db: Db, accountId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const deleted = await db
    .delete(contacts)
    .where(and(eq(contacts.accountId, accountId), inArray(contacts.id, ids)))
    .returning({ id: contacts.id });
  return deleted.length;
}
