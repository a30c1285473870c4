import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/database';
import { accounts } from '../../src/modules/accounts/accounts.db';

/** Inserts an account row directly, for domain tests that do not go through sign-up. */
export async function createTestAccount(
  db: Db,
  fields: Partial<typeof accounts.$inferInsert> = {},
): Promise<typeof accounts.$inferSelect> {
  const [account] = await db
    .insert(accounts)
    .values({ uuid: randomUUID(), ownerUserId: `test-user-${randomUUID()}`, name: 'Conta de teste', ...fields })
    .returning();
  if (!account) throw new Error('account insert returned nothing');
  return account;
}
