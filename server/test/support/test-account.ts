import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/database';
import { accounts } from '../../src/modules/accounts/accounts.db';

/** A complete footer identity (valid CNPJ check digits), required before a campaign is sent. */
export const TEST_ACCOUNT_IDENTITY = {
  legalName: 'Padaria Pão Quente Ltda',
  taxId: '11222333000181',
  address: 'Rua das Flores, 100 — Recife/PE, 50000-000',
};

/** Inserts an account row directly, for domain tests that do not go through sign-up. */
export async function createTestAccount(
  db: Db,
  fields: Partial<typeof accounts.$inferInsert> = {},
): Promise<typeof accounts.$inferSelect> {
  const [account] = await db
    .insert(accounts)
    .values({
      uuid: randomUUID(),
      ownerUserId: `test-user-${randomUUID()}`,
      name: 'Conta de teste',
      ...TEST_ACCOUNT_IDENTITY,
      ...fields,
    })
    .returning();
  if (!account) throw new Error('account insert returned nothing');
  return account;
}
