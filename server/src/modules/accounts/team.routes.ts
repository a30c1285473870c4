import { createHash, randomBytes } from 'node:crypto';
import {
  invitationAcceptSchema,
  invitationCreateSchema,
  memberUpdateSchema,
  type TeamInvitation,
  type TeamMember,
} from '@carteiro/shared';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Clock, systemClock } from '../../clock';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { parseInput } from '../../http/validate';
import { invitationEmail } from '../auth/auth-emails';
import { getSessionUser, requireActor, requireRole, requireSessionUser } from '../auth/request-actor';
import { userDirectory } from '../auth/users';
import type { MayCauseMail } from '../mail-policy/assert-may-cause-mail';
import { accountInvitations, accountMembers, accounts } from './accounts.db';
import { findAccount } from './accounts.service';

export const INVITATION_DAYS = 7;

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The team of the current account (spec §3 member/invitation): invitations by e-mail, members and roles. Owners
 * and admins manage it; members get 403. Only an owner can make or remove an owner, and the last owner stays.
 */
export async function teamRoutes(
  app: FastifyInstance,
  {
    mayCauseMail,
    clock = systemClock,
  }: {
    /** assertMayCauseMail with the process's limits (mail-policy sits above accounts). */
    mayCauseMail: MayCauseMail;
    /** The clock of the invitations' lifetime (default: the system's). */
    clock?: Clock;
  },
): Promise<void> {
  const db = () => app.authDatabase.db;

  app.get('/api/account/members', async (request): Promise<{ members: TeamMember[] }> => {
    const actor = await requireActor(request);
    const rows = await db()
      .select({
        userId: accountMembers.userId,
        role: accountMembers.role,
        joinedAt: accountMembers.createdAt,
        name: userDirectory.name,
        email: userDirectory.email,
      })
      .from(accountMembers)
      .leftJoin(userDirectory, eq(userDirectory.id, accountMembers.userId))
      .where(eq(accountMembers.accountId, actor.accountId))
      .orderBy(asc(accountMembers.createdAt));
    return { members: rows.map((r) => ({ ...r, joinedAt: r.joinedAt.toISOString() })) };
  });

  app.patch<{ Params: { userId: string } }>('/api/account/members/:userId', async (request) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const { role } = parseInput(memberUpdateSchema, request.body);
    return db().transaction(async (tx) => {
      await tx.execute(sql`select id from accounts where id = ${actor.accountId} for update`);
      const [member] = await tx
        .select()
        .from(accountMembers)
        .where(and(eq(accountMembers.accountId, actor.accountId), eq(accountMembers.userId, request.params.userId)));
      if (!member) throw new AppError('not_found');
      if ((member.role === 'owner' || role === 'owner') && actor.role !== 'owner') throw new AppError('forbidden');
      if (member.role === 'owner' && role !== 'owner') await assertAnotherOwner(tx, actor.accountId, member.userId);
      await tx
        .update(accountMembers)
        .set({ role })
        .where(and(eq(accountMembers.accountId, actor.accountId), eq(accountMembers.userId, member.userId)));
      return { member: { userId: member.userId, role } };
    });
  });

  app.delete<{ Params: { userId: string } }>('/api/account/members/:userId', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    await db().transaction(async (tx) => {
      await tx.execute(sql`select id from accounts where id = ${actor.accountId} for update`);
      const [member] = await tx
        .select()
        .from(accountMembers)
        .where(and(eq(accountMembers.accountId, actor.accountId), eq(accountMembers.userId, request.params.userId)));
      if (!member) throw new AppError('not_found');
      if (member.role === 'owner') {
        if (actor.role !== 'owner') throw new AppError('forbidden');
        await assertAnotherOwner(tx, actor.accountId, member.userId);
      }
      await tx
        .delete(accountMembers)
        .where(and(eq(accountMembers.accountId, actor.accountId), eq(accountMembers.userId, member.userId)));
    });
    return reply.status(204).send();
  });

  app.get('/api/account/invitations', async (request): Promise<{ invitations: TeamInvitation[] }> => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const rows = await db()
      .select({
        id: accountInvitations.id,
        email: accountInvitations.email,
        role: accountInvitations.role,
        invitedBy: accountInvitations.invitedBy,
        expiresAt: accountInvitations.expiresAt,
        createdAt: accountInvitations.createdAt,
      })
      .from(accountInvitations)
      .where(
        and(
          eq(accountInvitations.accountId, actor.accountId),
          isNull(accountInvitations.acceptedAt),
          isNull(accountInvitations.revokedAt),
          gt(accountInvitations.expiresAt, clock()),
        ),
      )
      .orderBy(asc(accountInvitations.createdAt));
    return {
      invitations: rows.map((r) => ({
        ...r,
        expiresAt: r.expiresAt.toISOString(),
        createdAt: r.createdAt.toISOString(),
      })),
    };
  });

  app.post('/api/account/invitations', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const input = parseInput(invitationCreateSchema, request.body);
    if (input.role === 'owner' && actor.role !== 'owner') throw new AppError('forbidden');
    const [already] = await db()
      .select({ userId: accountMembers.userId })
      .from(accountMembers)
      .innerJoin(userDirectory, eq(userDirectory.id, accountMembers.userId))
      .where(and(eq(accountMembers.accountId, actor.accountId), eq(sql`lower(${userDirectory.email})`, input.email)));
    if (already) throw new AppError('conflict', ERROR_TEXT.accounts.alreadyMember);
    await mayCauseMail(db(), actor, {
      kind: 'invitation',
      from: null,
      recipients: [input.email],
    });
    const account = await findAccount(db(), actor.accountId);
    if (!account) throw new AppError('not_found');
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(clock().getTime() + INVITATION_DAYS * 24 * 3600 * 1000);
    const [invitation] = await db()
      .insert(accountInvitations)
      .values({
        accountId: actor.accountId,
        email: input.email,
        role: input.role,
        tokenHash: hashInvitationToken(token),
        invitedBy: actor.userId,
        expiresAt,
      })
      .returning();
    if (!invitation) throw new Error('invitation insert returned nothing');
    const inviter = await getSessionUser(request);
    const config = app.authConfig;
    const url = `${config.PUBLIC_URL}/auth/invite/${actor.accountId}?token=${encodeURIComponent(token)}`;
    try {
      await app.authMailer.send({
        to: input.email,
        ...invitationEmail({
          inviterName: inviter?.name || actor.email,
          accountName: account.name,
          role: input.role,
          url,
          expiresInDays: INVITATION_DAYS,
        }),
      });
    } catch (error) {
      await db().delete(accountInvitations).where(eq(accountInvitations.id, invitation.id));
      request.log.warn({ err: error }, 'invitation e-mail not sent');
      throw new AppError('service_unavailable', ERROR_TEXT.accounts.inviteFailed);
    }
    return reply.status(201).send({
      invitation: {
        id: invitation.id,
        email: invitation.email,
        role: invitation.role,
        invitedBy: invitation.invitedBy,
        expiresAt: invitation.expiresAt.toISOString(),
        createdAt: invitation.createdAt.toISOString(),
      },
    });
  });

  app.delete<{ Params: { id: string } }>('/api/account/invitations/:id', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    if (!/^[0-9a-f-]{36}$/i.test(request.params.id)) throw new AppError('not_found');
    const revoked = await db()
      .update(accountInvitations)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(accountInvitations.id, request.params.id),
          eq(accountInvitations.accountId, actor.accountId),
          isNull(accountInvitations.acceptedAt),
          isNull(accountInvitations.revokedAt),
        ),
      )
      .returning({ id: accountInvitations.id });
    if (revoked.length === 0) throw new AppError('not_found');
    return reply.status(204).send();
  });

  // The invitee, signed in with the invited e-mail, joins the account.
  app.post('/api/invitations/accept', async (request) => {
    const user = await requireSessionUser(request);
    const input = parseInput(invitationAcceptSchema, request.body);
    return db().transaction(async (tx) => {
      const [invitation] = await tx
        .select()
        .from(accountInvitations)
        .where(
          and(
            eq(accountInvitations.tokenHash, hashInvitationToken(input.token)),
            eq(accountInvitations.accountId, input.accountId),
          ),
        )
        .for('update');
      if (!invitation || invitation.revokedAt || invitation.acceptedAt) throw new AppError('invalid-action-code');
      if (invitation.expiresAt.getTime() < clock().getTime()) throw new AppError('expired-action-code');
      if (invitation.email !== user.email) {
        throw new AppError(
          'forbidden',
          `Este convite foi enviado para ${invitation.email}. Entre com esse e-mail para aceitá-lo.`,
        );
      }
      await tx
        .insert(accountMembers)
        .values({ accountId: invitation.accountId, userId: user.userId, role: invitation.role })
        .onConflictDoNothing();
      await tx
        .update(accountInvitations)
        .set({ acceptedAt: new Date(), acceptedBy: user.userId })
        .where(eq(accountInvitations.id, invitation.id));
      const [account] = await tx
        .select({ id: accounts.id, name: accounts.name })
        .from(accounts)
        .where(eq(accounts.id, invitation.accountId));
      return { account, role: invitation.role };
    });
  });
}

type Tx = Parameters<Parameters<FastifyInstance['authDatabase']['db']['transaction']>[0]>[0];

async function assertAnotherOwner(tx: Tx, accountId: string, leavingUserId: string): Promise<void> {
  const owners = await tx
    .select({ userId: accountMembers.userId })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.role, 'owner')));
  if (!owners.some((o) => o.userId !== leavingUserId)) {
    throw new AppError('conflict', ERROR_TEXT.accounts.lastOwner);
  }
}
