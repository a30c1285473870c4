import { eq, getTableColumns, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database';
import { userDirectory } from '../auth/users';
import { accountMembers, accounts } from './accounts.db';

/**
 * The accounts module's read models for other modules' joins (documented in ARCHITECTURE.md): plain subqueries
 * that PostgreSQL pulls up into the caller's statement, so a report or back-office list that joined `accounts`
 * keeps its one statement. Read-only by construction; every write to these tables stays in this module.
 */
const qb = new QueryBuilder();

/**
 * One row per account: its name, the name its mail goes out as (`senderName`: the default From name, else the
 * account's name), status, price, balance and its owner's e-mail and name (null when the owner's user is gone).
 */
export const accountDirectory = qb
  .select({
    id: accounts.id,
    name: accounts.name,
    senderName: sql<string>`coalesce(nullif(${accounts.defaultFromName}, ''), ${accounts.name})`.as('sender_name'),
    status: accounts.status,
    priceMillis: accounts.priceMillis,
    balanceMillis: accounts.balanceMillis,
    ownerUserId: accounts.ownerUserId,
    // Aliased: `name` is the account's column in this subquery.
    ownerEmail: sql<string | null>`${userDirectory.email}`.as('owner_email'),
    ownerName: sql<string | null>`${userDirectory.name}`.as('owner_name'),
    createdAt: accounts.createdAt,
  })
  .from(accounts)
  .leftJoin(userDirectory, eq(userDirectory.id, accounts.ownerUserId))
  .as('account_directory');

/** One row per member of an account (owners included) who still has a user: role, since when, e-mail and name. */
export const teamDirectory = qb
  .select({
    accountId: accountMembers.accountId,
    userId: accountMembers.userId,
    role: accountMembers.role,
    joinedAt: accountMembers.createdAt,
    email: userDirectory.email,
    name: userDirectory.name,
  })
  .from(accountMembers)
  .innerJoin(userDirectory, eq(userDirectory.id, accountMembers.userId))
  .as('team_directory');

/** Every column of an account, once per member (`memberUserId`): the accounts a user may read (compatibility API). */
export const memberAccounts = qb
  .select({ ...getTableColumns(accounts), memberUserId: accountMembers.userId })
  .from(accounts)
  .innerJoin(accountMembers, eq(accountMembers.accountId, accounts.id))
  .as('member_accounts');

export interface AccountOwner {
  accountName: string;
  priceMillis: number;
  email: string;
  name: string;
}

/** Who Carteiro writes to about an account (low balance, paused automation, domain, webhook): its owner. */
export async function findAccountOwner(db: DbOrTx, accountId: string): Promise<AccountOwner | null> {
  const [row] = await db
    .select({
      accountName: accounts.name,
      priceMillis: accounts.priceMillis,
      email: userDirectory.email,
      name: userDirectory.name,
    })
    .from(accounts)
    .innerJoin(userDirectory, eq(userDirectory.id, accounts.ownerUserId))
    .where(eq(accounts.id, accountId));
  return row ?? null;
}
