import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { accounts } from '../../src/modules/accounts/accounts.db';
import { authUsers } from '../../src/modules/auth/auth.db';
import { TEST_ACCOUNT_IDENTITY } from './test-account';
import type { TestApp } from './test-app';

export interface SignedInUser {
  userId: string;
  accountId: string;
  email: string;
  password: string;
  /** Ready for `t.app.inject({ headers })`: the session cookie and a trusted Origin (CSRF). */
  headers: { cookie: string; origin: string };
}

/** A distinct client address per call, so the per-client sign-up/sign-in rate limit never trips between tests. */
export function randomClientIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${(b[2] ?? 0) % 250 || 1}`;
}

/** `name=value` pairs of every Set-Cookie of a response, joined for a Cookie header. */
export function cookiesFrom(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list
    .map((c) => c.split(';')[0] ?? '')
    .filter((pair) => pair && !pair.endsWith('='))
    .join('; ');
}

/**
 * Signs a new user up through the real HTTP endpoints, optionally marks the e-mail verified, loads /api/session
 * (which creates the user's account) and returns headers ready for `t.app.inject({ headers })`.
 */
export async function signUp(
  t: TestApp,
  opts: { email?: string; name?: string; password?: string; verified?: boolean; identity?: boolean } = {},
): Promise<SignedInUser> {
  const email = (opts.email ?? `user-${randomUUID().slice(0, 8)}@example.com`).toLowerCase();
  const password = opts.password ?? 'senha-forte-123';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: t.origin, 'content-type': 'application/json' },
    remoteAddress: randomClientIp(),
    payload: { email, password, name: opts.name ?? 'Maria Teste' },
  });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const userId = (res.json() as { user: { id: string } }).user.id;
  const headers = { cookie: cookiesFrom(res.headers['set-cookie']), origin: t.origin };
  if (opts.verified) {
    await t.database.db.update(authUsers).set({ emailVerified: true }).where(eq(authUsers.id, userId));
  }
  const session = await t.app.inject({ method: 'GET', url: '/api/session', headers });
  if (session.statusCode !== 200) throw new Error(`GET /api/session failed: ${session.statusCode} ${session.body}`);
  const accountId = (session.json() as { account: { id: string } }).account.id;
  // The footer identity a campaign needs before sending (ADR 0017), unless a test wants it missing.
  if (opts.identity !== false) {
    await t.database.db.update(accounts).set(TEST_ACCOUNT_IDENTITY).where(eq(accounts.id, accountId));
  }
  return { userId, accountId, email, password, headers };
}

/** Signs an existing user in with e-mail and password; returns headers like signUp's. */
export async function signIn(t: TestApp, email: string, password: string): Promise<{ cookie: string; origin: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: t.origin, 'content-type': 'application/json' },
    remoteAddress: randomClientIp(),
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return { cookie: cookiesFrom(res.headers['set-cookie']), origin: t.origin };
}
