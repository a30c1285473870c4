import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';

/** Who is acting, in which account, with which role. Every authenticated route starts from this. */
export interface RequestActor {
  userId: string;
  email: string;
  emailVerified: boolean;
  accountId: string;
  role: 'owner' | 'admin' | 'member';
  isOperator: boolean;
}

/**
 * What the request's actor needs from the modules above auth — accounts (memberships, the first account) and billing
 * (the operator role, blocked users) — passed in by buildApp, so auth, which every route uses, depends on neither.
 */
export interface AuthPorts {
  /** The role the user holds in the account, or null when not a member. */
  findMembership(db: Db, accountId: string, userId: string): Promise<RequestActor['role'] | null>;
  /** The user's first account, created when they have none. */
  ensureAccountForUser(db: Db, user: { id: string; name: string; email: string }): Promise<{ accountId: string }>;
  /** True when the back office granted the user the operator role. */
  hasOperatorRole(db: Db, userId: string): Promise<boolean>;
  /** True when an operator blocked the user: no session starts for them. */
  isUserDisabled(db: Db, userId: string): Promise<boolean>;
}

export interface SessionUser {
  userId: string;
  name: string;
  email: string;
  emailVerified: boolean;
  /** Named an operator (ADMIN_EMAILS or the role) AND with a verified e-mail: only then is the back office open. */
  isOperator: boolean;
  /** Named an operator but the e-mail is not verified yet: the back office says to confirm it. */
  isOperatorPendingVerification: boolean;
}

/** The client names its current account with this header (API clients) or cookie (the web app). */
export const ACCOUNT_HEADER = 'x-account-id';
export const ACCOUNT_COOKIE = 'carteiro_account';

/** The account cookie's name: `__Host-` prefixed in production (Secure, Path=/, no Domain), like the session's. */
export function accountCookieName(isProduction: boolean): string {
  return isProduction ? `__Host-${ACCOUNT_COOKIE}` : ACCOUNT_COOKIE;
}

/** better-auth's session cookie (`carteiro.session_token`, `__Secure-` prefixed in production). */
const SESSION_COOKIE_RE = /(?:^|;\s*)(?:__Secure-)?carteiro\.session_token=[^;\s]/;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const sessionCache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();

function toHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  return headers;
}

/** The signed-in user of this request, or null (looked up once per request, always in the database). */
export function getSessionUser(request: FastifyRequest): Promise<SessionUser | null> {
  let cached = sessionCache.get(request);
  if (!cached) {
    cached = (async () => {
      const auth = request.server.auth;
      const session = await auth.api.getSession({ headers: toHeaders(request), query: { disableCookieCache: true } });
      if (!session) return null;
      const email = session.user.email.toLowerCase();
      // Operators: ADMIN_EMAILS (configuration) or the operator role granted in the back office — and only once
      // the e-mail is verified, or whoever registered a listed address first would hold the back office.
      const isNamedOperator =
        request.server.authConfig.ADMIN_EMAILS.includes(email) ||
        (await request.server.authPorts.hasOperatorRole(request.server.authDatabase.db, session.user.id));
      const emailVerified = session.user.emailVerified;
      return {
        userId: session.user.id,
        name: session.user.name,
        email,
        emailVerified,
        isOperator: isNamedOperator && emailVerified,
        isOperatorPendingVerification: isNamedOperator && !emailVerified,
      };
    })();
    sessionCache.set(request, cached);
  }
  return cached;
}

/**
 * The signed-in user, or 401: `user-token-expired` when the request still carries a session cookie that is no
 * longer valid (expired, signed out elsewhere, revoked by a password change), else `unauthenticated`.
 */
export async function requireSessionUser(request: FastifyRequest): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (user) return user;
  throw noSessionError(request);
}

/** The 401 for a request without a valid session: `user-token-expired` when it carries a dead session cookie. */
export function noSessionError(request: FastifyRequest): AppError {
  return new AppError(SESSION_COOKIE_RE.test(request.headers.cookie ?? '') ? 'user-token-expired' : 'unauthenticated');
}

export const OPERATOR_EMAIL_NOT_VERIFIED_MESSAGE =
  'Confirme o seu e-mail para usar o painel de operação do Carteiro: abra o link que enviamos para você.';

/**
 * The signed-in operator, or 401 without a session; 403 `email_not_verified` for a named operator whose e-mail is
 * not verified yet, 403 `forbidden` for anyone else. Every /api/admin route starts from this.
 */
export async function requireOperator(request: FastifyRequest): Promise<{ userId: string; email: string }> {
  const user = await requireSessionUser(request);
  if (user.isOperatorPendingVerification) throw new AppError('email_not_verified', OPERATOR_EMAIL_NOT_VERIFIED_MESSAGE);
  if (!user.isOperator) throw new AppError('forbidden');
  return { userId: user.userId, email: user.email };
}

/** The account id the client asked for (header first, then cookie), if it looks like one. */
export function requestedAccountId(request: FastifyRequest): string | null {
  const header = request.headers[ACCOUNT_HEADER];
  const fromHeader = typeof header === 'string' ? header.trim() : '';
  if (fromHeader) return fromHeader;
  const cookie = request.headers.cookie ?? '';
  const name = accountCookieName(request.server.authConfig.isProduction);
  const match = cookie.match(new RegExp(`(?:^|;\\s*)${name}=([^;]+)`));
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/**
 * The acting user and account. 401 (`unauthenticated`, or `user-token-expired`) without a valid session; the current account is the one the
 * client names (x-account-id header or carteiro_account cookie) — 403 `forbidden` when the user is not a member of
 * it — else the user's first account, created at the first request when the user has none (spec §4).
 * Membership is read from the database on every request: a removed member loses access at once.
 */
export async function requireActor(request: FastifyRequest): Promise<RequestActor> {
  const user = await requireSessionUser(request);
  const db = request.server.authDatabase.db;
  const wanted = requestedAccountId(request);
  let accountId: string;
  if (wanted) {
    if (!UUID_RE.test(wanted)) throw new AppError('forbidden');
    accountId = wanted;
  } else {
    accountId = (
      await request.server.authPorts.ensureAccountForUser(db, { id: user.userId, name: user.name, email: user.email })
    ).accountId;
  }
  const role = await request.server.authPorts.findMembership(db, accountId, user.userId);
  if (!role) throw new AppError('forbidden');
  return {
    userId: user.userId,
    email: user.email,
    emailVerified: user.emailVerified,
    accountId,
    role,
    isOperator: user.isOperator,
  };
}

/** 403 `forbidden` unless the actor has one of `roles` in the current account. */
export function requireRole(actor: RequestActor, roles: Array<RequestActor['role']>): void {
  if (!roles.includes(actor.role)) throw new AppError('forbidden');
}
