import type { AccountRole } from '@carteiro/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import type { Tx } from '../accounts/account-balance';
import { teamDirectory } from '../accounts/account-directory';
import { endUserSessions, findUser } from '../auth/users';
import { disabledUsers } from './billing.db';
import { type OperatorRef, recordAdminAction } from './record-admin-action';

export interface AccountMemberAccess {
  userId: string;
  name: string;
  email: string;
  role: AccountRole;
  disabledAt: Date | null;
  disabledReason: string | null;
}

/** True when an operator blocked the user (the auth module refuses to start a session for them). */
export async function isUserDisabled(db: Tx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: disabledUsers.userId })
    .from(disabledUsers)
    .where(eq(disabledUsers.userId, userId));
  return row !== undefined;
}

/** The people of an account, for the back office: who they are, their role, and whether they are blocked. */
export async function listAccountMembersForOperator(db: Db, accountId: string): Promise<AccountMemberAccess[]> {
  return db
    .select({
      userId: teamDirectory.userId,
      name: teamDirectory.name,
      email: teamDirectory.email,
      role: teamDirectory.role,
      disabledAt: disabledUsers.createdAt,
      disabledReason: disabledUsers.reason,
    })
    .from(teamDirectory)
    .leftJoin(disabledUsers, eq(disabledUsers.userId, teamDirectory.userId))
    .where(eq(teamDirectory.accountId, accountId))
    .orderBy(asc(teamDirectory.joinedAt));
}

/**
 * Blocks a user (audited): every session they hold ends at once, and no new one starts until an operator
 * unblocks them. Never one's own access. Blocking someone already blocked changes nothing.
 */
export async function disableUser(
  db: Db,
  input: { userId: string; reason: string; operator: OperatorRef },
): Promise<{ changed: boolean }> {
  if (input.userId === input.operator.userId) {
    throw new AppError('conflict', ERROR_TEXT.billing.blockSelf);
  }
  return db.transaction(async (tx) => {
    const user = await findUser(tx, input.userId);
    if (!user) throw notFound('user');
    const inserted = await tx
      .insert(disabledUsers)
      .values({ userId: input.userId, reason: input.reason, disabledByUserId: input.operator.userId })
      .onConflictDoNothing()
      .returning({ userId: disabledUsers.userId });
    if (inserted.length === 0) return { changed: false };
    await endUserSessions(tx, input.userId);
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'user.disable',
      targetId: input.userId,
      reason: input.reason,
      details: { email: user.email },
    });
    return { changed: true };
  });
}

/** Unblocks a user (audited); they sign in again as usual. */
export async function enableUser(
  db: Db,
  input: { userId: string; reason: string; operator: OperatorRef },
): Promise<{ changed: boolean }> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(disabledUsers)
      .where(eq(disabledUsers.userId, input.userId))
      .returning({ userId: disabledUsers.userId });
    if (removed.length === 0) return { changed: false };
    const user = await findUser(tx, input.userId);
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'user.enable',
      targetId: input.userId,
      reason: input.reason,
      details: { email: user?.email ?? null },
    });
    return { changed: true };
  });
}
