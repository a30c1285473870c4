import { eq, inArray, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database';
import { authSessions, authUsers } from './auth.db';

/**
 * The auth module's read model of users for other modules' joins (the account's owner, a team member, an API key's
 * creator, an operator): id, e-mail and name only — never passwords, sessions or verification rows. A plain
 * subquery, which PostgreSQL pulls up into the caller's statement, so a join through it costs what a join on
 * `auth_users` costs and stays one statement.
 */
export const userDirectory = new QueryBuilder()
  .select({ id: authUsers.id, email: authUsers.email, name: authUsers.name })
  .from(authUsers)
  .as('user_directory');

export interface UserContact {
  id: string;
  email: string;
  name: string;
}

/** A user's id, e-mail and name; null when there is no such user. */
export async function findUser(db: DbOrTx, userId: string): Promise<UserContact | null> {
  const [row] = await db
    .select({ id: authUsers.id, email: authUsers.email, name: authUsers.name })
    .from(authUsers)
    .where(eq(authUsers.id, userId));
  return row ?? null;
}

/** The users with these e-mail addresses, compared case-insensitively. */
export async function findUsersByEmail(db: DbOrTx, emails: readonly string[]): Promise<UserContact[]> {
  if (emails.length === 0) return [];
  return db
    .select({ id: authUsers.id, email: authUsers.email, name: authUsers.name })
    .from(authUsers)
    .where(
      inArray(
        sql`lower(${authUsers.email})`,
        emails.map((e) => e.trim().toLowerCase()),
      ),
    );
}

/** Ends every session the user holds (an operator blocked them), in the caller's transaction. */
export async function endUserSessions(tx: DbOrTx, userId: string): Promise<void> {
  await tx.delete(authSessions).where(eq(authSessions.userId, userId));
}
