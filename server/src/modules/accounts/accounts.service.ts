import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { accountMembers, accounts } from './accounts.db';

export type AccountRole = (typeof accountMembers.$inferSelect)['role'];
export type AccountRow = typeof accounts.$inferSelect;

/** The accounts a user belongs to, owned ones first, then by age. */
export async function listUserAccounts(
  db: Db,
  userId: string,
): Promise<Array<{ id: string; name: string; role: AccountRole }>> {
  return db
    .select({ id: accounts.id, name: accounts.name, role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(eq(accountMembers.userId, userId))
    .orderBy(
      sql`case ${accountMembers.role} when 'owner' then 0 when 'admin' then 1 else 2 end`,
      asc(accounts.createdAt),
    );
}

export async function findMembership(db: Db, accountId: string, userId: string): Promise<AccountRole | null> {
  const [row] = await db
    .select({ role: accountMembers.role })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)));
  return row?.role ?? null;
}

export async function findAccount(db: Db, accountId: string): Promise<AccountRow | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return row ?? null;
}

export function defaultAccountName(name: string, email: string): string {
  const trimmed = name.trim();
  return trimmed ? `Conta de ${trimmed}` : `Conta de ${email.split('@')[0]}`;
}

/**
 * Session start (spec §4): the user's first account (owned or shared); when there is none, a new one owned by the
 * user. Serialised per user with an advisory lock so two first requests never create two accounts. A `uuid`
 * already used returns that account when the same user owns it (a client retrying its create).
 */
export async function ensureAccountForUser(
  db: Db,
  user: { id: string; name: string; email: string },
  wanted?: { uuid?: string; name?: string },
): Promise<{ accountId: string; created: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`account-start:${user.id}`}))`);
    if (wanted?.uuid) {
      const [byUuid] = await tx
        .select({ id: accounts.id, owner: accounts.ownerUserId })
        .from(accounts)
        .where(eq(accounts.uuid, wanted.uuid));
      if (byUuid) {
        if (byUuid.owner !== user.id) return { accountId: '', created: false };
        return { accountId: byUuid.id, created: false };
      }
    }
    const [existing] = await tx
      .select({ id: accounts.id })
      .from(accountMembers)
      .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
      .where(eq(accountMembers.userId, user.id))
      .orderBy(
        sql`case ${accountMembers.role} when 'owner' then 0 when 'admin' then 1 else 2 end`,
        asc(accounts.createdAt),
      )
      .limit(1);
    if (existing && !wanted?.uuid) return { accountId: existing.id, created: false };
    const [account] = await tx
      .insert(accounts)
      .values({
        uuid: wanted?.uuid ?? randomUUID(),
        ownerUserId: user.id,
        name: wanted?.name?.trim() || defaultAccountName(user.name, user.email),
      })
      .returning({ id: accounts.id });
    if (!account) throw new Error('account insert returned nothing');
    await tx.insert(accountMembers).values({ accountId: account.id, userId: user.id, role: 'owner' });
    return { accountId: account.id, created: true };
  });
}
