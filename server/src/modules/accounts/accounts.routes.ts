import {
  type AccountView,
  accountCreateSchema,
  accountSwitchSchema,
  accountUpdateSchema,
  type SessionView,
  sessionQuerySchema,
} from '@carteiro/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { parseInput } from '../../http/validate';
import {
  accountCookieName,
  type RequestActor,
  requestedAccountId,
  requireActor,
  requireRole,
  requireSessionUser,
} from '../auth/request-actor';
import {
  type AccountRow,
  ensureAccountForUser,
  findAccount,
  findMembership,
  listUserAccounts,
  updateAccountSettings,
} from './accounts.service';

export function toAccountView(row: AccountRow): AccountView {
  return {
    id: row.id,
    uuid: row.uuid,
    ownerUserId: row.ownerUserId,
    name: row.name,
    legalName: row.legalName,
    taxId: row.taxId,
    address: row.address,
    timeZone: row.timeZone,
    defaultFromName: row.defaultFromName,
    defaultFromEmail: row.defaultFromEmail,
    priceMillis: row.priceMillis,
    balanceMillis: row.balanceMillis,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function setAccountCookie(request: FastifyRequest, reply: FastifyReply, accountId: string | null): void {
  const production = request.server.authConfig.isProduction;
  const name = accountCookieName(production);
  const secure = production ? '; Secure' : '';
  const value = accountId
    ? `${name}=${accountId}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000${secure}`
    : `${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
  reply.header('set-cookie', value);
}

/**
 * Session start and the current account (spec §3, §4): GET /api/session, POST /api/accounts,
 * POST /api/session/account, GET/PATCH /api/account, GET /api/accounts/:id.
 */
export async function accountsRoutes(app: FastifyInstance): Promise<void> {
  const db = () => app.authDatabase.db;

  async function sessionView(
    request: FastifyRequest,
    reply: FastifyReply,
    newAccountUuid?: string,
  ): Promise<SessionView> {
    const user = await requireSessionUser(request);
    const wanted = requestedAccountId(request);
    let accountId: string | null = null;
    let role = wanted ? await findMembership(db(), wanted, user.userId).catch(() => null) : null;
    if (wanted && role) accountId = wanted;
    if (!accountId) {
      // No (valid) choice: the first account of the user, created now when there is none (spec §4), with the
      // uuid the client generated when it sent one.
      if (wanted) setAccountCookie(request, reply, null);
      const owner = { id: user.userId, name: user.name, email: user.email };
      accountId = (await ensureAccountForUser(db(), owner, { uuid: newAccountUuid, onlyWhenNone: true })).accountId;
      role = await findMembership(db(), accountId, user.userId);
    }
    const account = await findAccount(db(), accountId);
    if (!account || !role) throw new AppError('forbidden');
    return {
      user: { id: user.userId, name: user.name, email: user.email, emailVerified: user.emailVerified },
      account: toAccountView(account),
      accounts: await listUserAccounts(db(), user.userId),
      role,
      isOperator: user.isOperator,
    };
  }

  app.get('/api/session', async (request, reply) => {
    const { newAccountUuid } = parseInput(sessionQuerySchema, request.query ?? {});
    return sessionView(request, reply, newAccountUuid);
  });

  // Account creation with a client-generated uuid (spec §4); idempotent for the same uuid and owner.
  app.post('/api/accounts', async (request, reply) => {
    const user = await requireSessionUser(request);
    const input = parseInput(accountCreateSchema, request.body);
    const result = await ensureAccountForUser(
      db(),
      { id: user.userId, name: user.name, email: user.email },
      { uuid: input.uuid, name: input.name },
    );
    if (!result.accountId) throw new AppError('conflict', ERROR_TEXT.accounts.slugTaken);
    const account = await findAccount(db(), result.accountId);
    if (!account) throw new AppError('not_found');
    setAccountCookie(request, reply, account.id);
    return reply.status(result.created ? 201 : 200).send({ account: toAccountView(account) });
  });

  // Switch the current account: only to one the user belongs to.
  app.post('/api/session/account', async (request, reply) => {
    const user = await requireSessionUser(request);
    const { accountId } = parseInput(accountSwitchSchema, request.body);
    if (!(await findMembership(db(), accountId, user.userId))) throw new AppError('not_found');
    setAccountCookie(request, reply, accountId);
    request.headers['x-account-id'] = accountId;
    return sessionView(request, reply);
  });

  app.get('/api/account', async (request) => {
    const actor = await requireActor(request);
    const account = await findAccount(db(), actor.accountId);
    if (!account) throw new AppError('not_found');
    return { account: toAccountView(account), role: actor.role };
  });

  // One account by id: only for its members; anyone else gets 404 (never a hint that it exists).
  app.get<{ Params: { id: string } }>('/api/accounts/:id', async (request) => {
    const user = await requireSessionUser(request);
    const id = request.params.id;
    const role = /^[0-9a-f-]{36}$/i.test(id) ? await findMembership(db(), id, user.userId) : null;
    const account = role ? await findAccount(db(), id) : null;
    if (!account || !role) throw new AppError('not_found');
    return { account: toAccountView(account), role };
  });

  // Account update (spec §4): merge, set updated_at, reload. Owners and admins only.
  app.patch('/api/account', async (request) => {
    const actor: RequestActor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const input = parseInput(accountUpdateSchema, request.body ?? {});
    await updateAccountSettings(db(), actor.accountId, input);
    const account = await findAccount(db(), actor.accountId);
    if (!account) throw new AppError('not_found');
    return { account: toAccountView(account) };
  });
}
