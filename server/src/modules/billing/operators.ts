import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import type { Tx } from '../accounts/account-balance';
import { findUser, findUsersByEmail, userDirectory } from '../auth/users';
import { operatorRoles } from './billing.db';
import { type OperatorRef, recordAdminAction } from './record-admin-action';

export interface OperatorRow {
  userId: string | null;
  email: string;
  name: string | null;
  /** `config`: listed in ADMIN_EMAILS (changed only by configuration); `role`: granted in the back office. */
  source: 'config' | 'role';
  grantedAt: Date | null;
}

/** True when the user holds the operator role (ADMIN_EMAILS is checked by the caller). */
export async function hasOperatorRole(db: Tx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: operatorRoles.userId })
    .from(operatorRoles)
    .where(eq(operatorRoles.userId, userId));
  return row !== undefined;
}

/** Everyone with the back office: ADMIN_EMAILS first (signed up or not), then the granted roles. */
export async function listOperators(db: Db, adminEmails: readonly string[]): Promise<OperatorRow[]> {
  const granted = await db
    .select({
      userId: operatorRoles.userId,
      email: userDirectory.email,
      name: userDirectory.name,
      createdAt: operatorRoles.createdAt,
    })
    .from(operatorRoles)
    .innerJoin(userDirectory, eq(userDirectory.id, operatorRoles.userId))
    .orderBy(asc(userDirectory.email));
  const configured = await findUsersByEmail(db, adminEmails);
  const rows: OperatorRow[] = adminEmails.map((email) => {
    const user = configured.find((u) => u.email.toLowerCase() === email.toLowerCase());
    return { userId: user?.id ?? null, email, name: user?.name ?? null, source: 'config', grantedAt: null };
  });
  for (const g of granted) {
    if (adminEmails.includes(g.email.toLowerCase())) continue;
    rows.push({ userId: g.userId, email: g.email, name: g.name, source: 'role', grantedAt: g.createdAt });
  }
  return rows;
}

/** Grants the operator role to the user with that e-mail (audited). The user must already have signed up. */
export async function grantOperatorRole(
  db: Db,
  input: { email: string; reason: string; operator: OperatorRef },
): Promise<{ userId: string; created: boolean }> {
  return db.transaction(async (tx) => {
    const [user] = await findUsersByEmail(tx, [input.email]);
    if (!user) {
      throw new AppError(
        'not_found',
        'Nenhum usuário com este e-mail. A pessoa precisa criar a conta no Carteiro antes.',
      );
    }
    const inserted = await tx
      .insert(operatorRoles)
      .values({ userId: user.id, grantedByUserId: input.operator.userId })
      .onConflictDoNothing()
      .returning({ userId: operatorRoles.userId });
    if (inserted.length === 0) return { userId: user.id, created: false };
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'operator.grant',
      targetId: user.id,
      reason: input.reason,
      details: { email: user.email },
    });
    return { userId: user.id, created: true };
  });
}

/** Takes the operator role away (audited). Never one's own: an operator cannot lock themselves out by mistake. */
export async function revokeOperatorRole(
  db: Db,
  input: { userId: string; reason: string; operator: OperatorRef },
): Promise<{ removed: boolean }> {
  if (input.userId === input.operator.userId) {
    throw new AppError('conflict', ERROR_TEXT.billing.revokeOwnOperator);
  }
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(operatorRoles)
      .where(eq(operatorRoles.userId, input.userId))
      .returning({ userId: operatorRoles.userId });
    if (removed.length === 0) return { removed: false };
    const user = await findUser(tx, input.userId);
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'operator.revoke',
      targetId: input.userId,
      reason: input.reason,
      details: { email: user?.email ?? null },
    });
    return { removed: true };
  });
}
