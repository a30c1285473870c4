import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, randomClientIp, signIn, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { buildApp } from '../../app';
import { type Database, openDatabase, queryRows } from '../../db/database';
import { authSessions, authVerifications } from './auth.db';

/** The newest mail to `to` whose subject matches, waiting for background sends. */
async function waitForMail(t: TestApp, to: string, subject: RegExp) {
  for (let i = 0; i < 100; i++) {
    const mail = (await t.sentMail()).find((m) => m.to.includes(to) && subject.test(m.subject));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

function linkIn(text: string): URL {
  const match = text.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`no link in ${text}`);
  return new URL(match[0]);
}

function post(t: TestApp, url: string, payload: unknown, extra: Record<string, string> = {}, ip = randomClientIp()) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { origin: t.origin, 'content-type': 'application/json', ...extra },
    remoteAddress: ip,
    payload: payload as Record<string, unknown>,
  });
}

describe.each(DATABASE_KINDS)('auth on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { PUBLIC_URL: 'https://app.carteiro.test' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers GET /api/session with 401 unauthenticated without a session', async () => {
    const res = await t.app.inject('/api/session');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthenticated');
  });

  it('signs up, sends a pt-BR verification e-mail whose link verifies the address', async () => {
    const user = await signUp(t, { name: 'Joana' });
    const before = (await t.app.inject({ url: '/api/session', headers: user.headers })).json();
    expect(before.user).toMatchObject({ email: user.email, emailVerified: false });
    expect(before.role).toBe('owner');
    expect(before.account.timeZone).toBe('America/Sao_Paulo');

    const mail = await waitForMail(t, user.email, /Confirme seu e-mail/);
    expect(mail.text).toContain('Olá, Joana!');
    expect(mail.html).toContain('Confirmar e-mail');
    const link = linkIn(mail.text);
    expect(link.origin).toBe('https://app.carteiro.test');
    const verify = await t.app.inject({ url: link.pathname + link.search });
    expect(verify.statusCode).toBeLessThan(400);
    const after = (await t.app.inject({ url: '/api/session', headers: user.headers })).json();
    expect(after.user.emailVerified).toBe(true);
  });

  it('stores the password as argon2id with m >= 19 MiB and t >= 2', async () => {
    const user = await signUp(t);
    const rows = await queryRows<{ password: string }>(
      t.database.db,
      sql`select password from auth_accounts where user_id = ${user.userId} and provider_id = 'credential'`,
    );
    const hash = rows[0]?.password ?? '';
    const m = hash.match(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=1\$/);
    expect(m).not.toBeNull();
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(19456);
    expect(Number(m?.[2])).toBeGreaterThanOrEqual(2);
  });

  it('answers a wrong password and an unknown e-mail alike: 401 "E-mail ou senha incorretos"', async () => {
    const user = await signUp(t);
    const wrong = await post(t, '/api/auth/sign-in/email', { email: user.email, password: 'nao-e-essa' });
    const unknown = await post(t, '/api/auth/sign-in/email', { email: 'ninguem@example.com', password: 'nao-e-essa' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
    expect(wrong.json()).toEqual({ error: { code: 'invalid-credential', message: 'E-mail ou senha incorretos.' } });
  });

  it('maps sign-up errors to the spec codes', async () => {
    const user = await signUp(t);
    const taken = await post(t, '/api/auth/sign-up/email', { email: user.email, password: 'outra-senha-1', name: 'X' });
    expect(taken.json().error.code).toBe('email-already-in-use');
    expect(taken.json().error.message).toBe('Já existe uma conta com este e-mail.');

    const weak = await post(t, '/api/auth/sign-up/email', { email: 'fraca@example.com', password: '12345', name: 'X' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.code).toBe('password-does-not-meet-requirements');
    const long = await post(t, '/api/auth/sign-up/email', {
      email: 'longa@example.com',
      password: 'x'.repeat(129),
      name: 'X',
    });
    expect(long.json().error.code).toBe('password-does-not-meet-requirements');

    const bad = await post(t, '/api/auth/sign-up/email', { email: 'não-é-email', password: 'senha-boa-1', name: 'X' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid-email');
    // Seven characters are refused, eight are enough, no composition rules (ADR 0017).
    const seven = await post(t, '/api/auth/sign-up/email', {
      email: 'sete@example.com',
      password: 'abcdefg',
      name: 'X',
    });
    expect(seven.statusCode).toBe(400);
    expect(seven.json().error).toEqual({
      code: 'password-does-not-meet-requirements',
      message: 'A senha deve ter entre 8 e 128 caracteres.',
    });
    const eight = await post(t, '/api/auth/sign-up/email', {
      email: 'oito@example.com',
      password: 'pão quen',
      name: 'X',
    });
    expect(eight.statusCode).toBe(200);
    const longest = await post(t, '/api/auth/sign-up/email', {
      email: 'maxima@example.com',
      password: 'frase longa '.repeat(10).slice(0, 128),
      name: 'X',
    });
    expect(longest.statusCode).toBe(200);
  });

  it('refuses common and breached passwords wherever a password is set, in pt-BR', async () => {
    for (const password of ['12345678', 'Password1', 'senha123', '  qwertyuiop  ']) {
      const res = await post(t, '/api/auth/sign-up/email', { email: 'comum@example.com', password, name: 'X' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('password-does-not-meet-requirements');
      expect(res.json().error.message).toMatch(/muito comum ou já apareceu em vazamentos/);
      expect(res.json().error.details).toEqual({ field: 'password' });
    }
    // Nothing was created: the same address signs up with a good password.
    const ok = await post(t, '/api/auth/sign-up/email', {
      email: 'comum@example.com',
      password: 'padaria-do-bairro-7',
      name: 'X',
    });
    expect(ok.statusCode).toBe(200);

    const user = await signUp(t);
    const fresh = await signIn(t, user.email, user.password);
    const change = await post(
      t,
      '/api/auth/change-password',
      { currentPassword: user.password, newPassword: 'iloveyou' },
      fresh,
    );
    expect(change.statusCode).toBe(400);
    expect(change.json().error.details).toEqual({ field: 'newPassword' });
    await signIn(t, user.email, user.password);
  });

  it('refuses sign-in from a foreign Origin (CSRF) with 403', async () => {
    const res = await post(
      t,
      '/api/auth/sign-in/email',
      { email: 'a@example.com', password: 'x' },
      {
        origin: 'https://evil.example',
      },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('csrf_rejected');
  });

  it('sets HttpOnly SameSite=Lax session cookies', async () => {
    const res = await post(t, '/api/auth/sign-up/email', {
      email: 'cookie@example.com',
      password: 'senha-boa-1',
      name: 'C',
    });
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const session = cookies.find((c) => c.startsWith('carteiro.session_token='));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
  });

  it('answers forgot-password alike for known and unknown e-mails, resets through the e-mailed link', async () => {
    const user = await signUp(t);
    const other = await signIn(t, user.email, user.password);
    const redirectTo = `${t.origin}/auth/reset-password`;
    const known = await post(t, '/api/auth/request-password-reset', { email: user.email, redirectTo });
    const unknown = await post(t, '/api/auth/request-password-reset', { email: 'ninguem@example.com', redirectTo });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);

    const mail = await waitForMail(t, user.email, /Redefinição de senha/);
    expect(mail.html).toContain('Redefinir senha');
    const link = linkIn(mail.text);
    expect(link.origin + link.pathname).toBe('https://app.carteiro.test/auth/reset-password');
    const token = link.searchParams.get('token') as string;

    const weak = await post(t, '/api/auth/reset-password', { token, newPassword: '123' });
    expect(weak.json().error.code).toBe('password-does-not-meet-requirements');
    const common = await post(t, '/api/auth/reset-password', { token, newPassword: 'baseball' });
    expect(common.json().error.message).toMatch(/muito comum/);
    const reset = await post(t, '/api/auth/reset-password', { token, newPassword: 'nova-senha-456' });
    expect(reset.statusCode).toBe(200);
    const reused = await post(t, '/api/auth/reset-password', { token, newPassword: 'nova-senha-789' });
    expect(reused.json().error.code).toBe('invalid-action-code');

    const old = await post(t, '/api/auth/sign-in/email', { email: user.email, password: user.password });
    expect(old.json().error.code).toBe('invalid-credential');
    await signIn(t, user.email, 'nova-senha-456');
    // The reset signed every existing session out.
    expect((await t.app.inject({ url: '/api/session', headers: other })).statusCode).toBe(401);
  });

  it('answers an expired reset token with expired-action-code', async () => {
    const user = await signUp(t);
    await post(t, '/api/auth/request-password-reset', { email: user.email, redirectTo: `${t.origin}/x` });
    const token = linkIn((await waitForMail(t, user.email, /Redefinição de senha/)).text).searchParams.get('token');
    await t.database.db
      .update(authVerifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authVerifications.identifier, `reset-password:${token}`));
    const res = await post(t, '/api/auth/reset-password', { token, newPassword: 'nova-senha-456' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'expired-action-code', message: 'Este link expirou. Peça um novo.' });
  });

  it('signs in through the e-mailed magic link', async () => {
    const user = await signUp(t);
    const res = await post(t, '/api/auth/sign-in/magic-link', { email: user.email, callbackURL: '/dashboard' });
    expect(res.statusCode).toBe(200);
    const mail = await waitForMail(t, user.email, /link para entrar/);
    expect(mail.text).toContain('Entrar no Carteiro');
    const link = linkIn(mail.text);
    expect(link.origin).toBe('https://app.carteiro.test');
    const verify = await t.app.inject({ url: link.pathname + link.search });
    expect(verify.statusCode).toBe(302);
    expect(verify.headers.location).toContain('/dashboard');
    const cookie = cookiesFrom(verify.headers['set-cookie']);
    const session = await t.app.inject({ url: '/api/session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.json().user.email).toBe(user.email);
    // The link works once.
    const again = await t.app.inject({ url: link.pathname + link.search });
    expect(String(again.headers.location)).toContain('error=INVALID_TOKEN');
  });

  it('requires a recent sign-in to change the password, then signs other sessions out', async () => {
    const user = await signUp(t);
    const second = await signIn(t, user.email, user.password);
    await t.database.db
      .update(authSessions)
      .set({ createdAt: new Date(Date.now() - 3600_000) })
      .where(eq(authSessions.userId, user.userId));
    const stale = await post(
      t,
      '/api/auth/change-password',
      { currentPassword: user.password, newPassword: 'trocada-123' },
      user.headers,
    );
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error.code).toBe('requires-recent-login');

    const fresh = await signIn(t, user.email, user.password);
    const wrong = await post(
      t,
      '/api/auth/change-password',
      { currentPassword: 'errada', newPassword: 'x1234567' },
      fresh,
    );
    expect(wrong.json().error.code).toBe('wrong-password');
    const ok = await post(
      t,
      '/api/auth/change-password',
      { currentPassword: user.password, newPassword: 'trocada-123' },
      fresh,
    );
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/session', headers: second })).statusCode).toBe(401);
  });

  it('requires a recent sign-in to change the e-mail, then confirms from the current address', async () => {
    const user = await signUp(t, { verified: true });
    await t.database.db
      .update(authSessions)
      .set({ createdAt: new Date(Date.now() - 3600_000) })
      .where(eq(authSessions.userId, user.userId));
    const stale = await post(t, '/api/auth/change-email', { newEmail: 'novo-endereco@example.com' }, user.headers);
    expect(stale.json().error.code).toBe('requires-recent-login');
    const fresh = await signIn(t, user.email, user.password);
    const ok = await post(t, '/api/auth/change-email', { newEmail: 'novo-endereco@example.com' }, fresh);
    expect(ok.statusCode).toBe(200);
    const mail = await waitForMail(t, user.email, /troca de e-mail/);
    expect(mail.text).toContain('novo-endereco@example.com');
    expect(linkIn(mail.text).origin).toBe('https://app.carteiro.test');
  });

  it('signs out server-side', async () => {
    const user = await signUp(t);
    const out = await post(t, '/api/auth/sign-out', {}, user.headers);
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/session', headers: user.headers })).statusCode).toBe(401);
  });

  it('marks ADMIN_EMAILS users as operators', async () => {
    const t2 = await createTestApp(kind, { ADMIN_EMAILS: 'ops@example.com' });
    try {
      const ops = await signUp(t2, { email: 'ops@example.com', verified: true });
      expect((await t2.app.inject({ url: '/api/session', headers: ops.headers })).json().isOperator).toBe(true);
      const user = await signUp(t2);
      expect((await t2.app.inject({ url: '/api/session', headers: user.headers })).json().isOperator).toBe(false);
    } finally {
      await t2.close();
    }
  });

  it('rate-limits the 4th rapid sign-in of a client with 429 + Retry-After, across two app instances', async () => {
    const user = await signUp(t);
    // A second app instance with its own better-auth (no shared memory) on the same database: on PostgreSQL its
    // own connection pool; on PGlite (one process per data directory) the same database handle.
    let secondDb: Database | null = null;
    if (kind === 'postgres' && t.database.url) {
      secondDb = await openDatabase({ kind: 'postgres', url: t.database.url, poolSize: 2 });
    }
    const second: FastifyInstance = await buildApp({
      config: t.config,
      database: secondDb ?? t.database,
      mailer: t.mailer,
      logger: pino({ level: 'silent' }),
      webDistDir: null,
    });
    await second.ready();
    try {
      const ip = '203.0.113.7';
      const attempt = (app: FastifyInstance) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          headers: { origin: t.origin, 'content-type': 'application/json' },
          remoteAddress: ip,
          payload: { email: user.email, password: 'errada-000' },
        });
      expect((await attempt(t.app)).statusCode).toBe(401);
      expect((await attempt(second)).statusCode).toBe(401);
      expect((await attempt(t.app)).statusCode).toBe(401);
      const limited = await attempt(second);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json().error).toEqual({
        code: 'too-many-requests',
        message: 'Muitas tentativas. Aguarde um pouco e tente de novo.',
      });
      // Another client is not affected.
      const other = await post(t, '/api/auth/sign-in/email', { email: user.email, password: user.password });
      expect(other.statusCode).toBe(200);
      // The counter lives in the database (better-auth's memory store is per process): it is there, and
      // clearing it there lifts the limit for both instances.
      const counters = await queryRows<{ count: number }>(
        t.database.db,
        sql`select count from auth_rate_limits where key like ${`%${ip}%`} and key like '%sign-in/email%'`,
      );
      expect(counters.map((c) => Number(c.count))).toEqual([3]);
      await t.database.db.execute(sql`delete from auth_rate_limits where key like ${`%${ip}%`}`);
      expect((await attempt(second)).statusCode).toBe(401);
    } finally {
      await second.close();
      await secondDb?.close();
    }
  });

  it.each([
    [
      'sign-up',
      '/api/auth/sign-up/email',
      (i: number) => ({ email: `rl-${i}-${Date.now()}@example.com`, password: 'senha-boa-1', name: 'R' }),
    ],
    ['magic link', '/api/auth/sign-in/magic-link', () => ({ email: 'magico@example.com', callbackURL: '/dashboard' })],
    ['forgot-password', '/api/auth/request-password-reset', () => ({ email: 'esqueci@example.com', redirectTo: '/x' })],
  ])('rate-limits the 4th rapid %s request of a client with 429 + Retry-After', async (_name, url, body) => {
    const ip = randomClientIp();
    for (let i = 0; i < 3; i++) expect((await post(t, url, body(i), {}, ip)).statusCode).toBe(200);
    const limited = await post(t, url, body(3), {}, ip);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error.code).toBe('too-many-requests');
  });

  it('answers a magic-link request alike for known and unknown e-mails', async () => {
    const user = await signUp(t);
    const known = await post(t, '/api/auth/sign-in/magic-link', { email: user.email, callbackURL: '/dashboard' });
    const unknown = await post(t, '/api/auth/sign-in/magic-link', {
      email: 'ninguem-magico@example.com',
      callbackURL: '/dashboard',
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
  });
});

/** Every route of the app as [method, path], read from Fastify's route tree. */
function registeredRoutes(app: FastifyInstance): Array<[string, string]> {
  const routes: Array<[string, string]> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = line.match(/^([│ ]*)(?:├── |└── )?(\S+?)(?: \(([A-Z, ]+)\))?$/u);
    if (!match?.[2]) continue;
    const depth = Math.floor((match[1] ?? '').length / 4) + (line.includes('── ') ? 1 : 0);
    stack.length = depth;
    stack[depth] = match[2];
    const path = stack.join('');
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) routes.push([method, path]);
  }
  return routes;
}

describe.each(DATABASE_KINDS)('CSRF on every state-changing route on %s', (kind) => {
  // Routes third parties call without a browser session; each checks a signature or an unguessable token instead.
  const OPTED_OUT = new Set([
    'POST /api/webhooks/mercadopago',
    'POST /api/webhooks/pix-api/:token/pix',
    'POST /api/webhooks/ses',
    'POST /s/:listId',
    'POST /u/:token',
    'POST /u/:token/confirm',
    'POST /u/:token/preferences',
    'POST /u/:token/resubscribe',
  ]);

  it('refuses a foreign Origin with 403 csrf_rejected on every POST/PUT/PATCH/DELETE route but the opted-out ones', async () => {
    const t = await createTestApp(kind);
    try {
      const user = await signUp(t);
      const mutating = registeredRoutes(t.app).filter(([method]) =>
        ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method),
      );
      const paths = mutating.map(([method, path]) => `${method} ${path}`);
      // The tree was read: the families of the API are all there.
      for (const expected of [
        'PATCH /api/account',
        'POST /api/campaigns',
        'DELETE /api/lists/:id',
        'POST /api/contacts/:id/erase',
        'POST /api/invitations/accept',
        // better-auth's catch-all (/api/auth/*), which Fastify's tree prints as a bare wildcard.
        'POST *',
      ]) {
        expect(paths).toContain(expected);
      }
      expect(mutating.length).toBeGreaterThan(50);
      const accepted: string[] = [];
      for (const [method, path] of mutating) {
        const url = path === '*' ? '/api/auth/sign-in/email' : path.replace(/:\w+/g, randomUUID());
        const res = await t.app.inject({
          method: method as 'POST',
          url,
          headers: { ...user.headers, origin: 'https://evil.example', 'content-type': 'application/json' },
          payload: '{}',
        });
        if (res.statusCode === 403 && res.json().error?.code === 'csrf_rejected') continue;
        // The public API (ADR 0014) has no CSRF check because a cookie is no credential there: the session's
        // cookies alone get 401, so a forged cross-site request can do nothing.
        if (path.startsWith('/api/v1/')) {
          expect(res.statusCode, `${method} ${path}`).toBe(401);
          expect(res.json().error?.code).toBe('invalid_api_key');
          continue;
        }
        accepted.push(`${method} ${path}`);
      }
      expect(accepted.sort()).toEqual([...OPTED_OUT].filter((r) => paths.includes(r)).sort());
    } finally {
      await t.close();
    }
  });
});

describe('auth cookies in production', () => {
  it('are Secure and __Secure- prefixed', async () => {
    const t = await createTestApp('pglite', { NODE_ENV: 'production', PUBLIC_URL: 'https://carteiro.example' });
    try {
      const res = await post(t, '/api/auth/sign-up/email', {
        email: 'prod@example.com',
        password: 'senha-boa-1',
        name: 'P',
      });
      expect(res.statusCode).toBe(200);
      const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      const session = cookies.find((c) => c.includes('session_token='));
      expect(session).toMatch(/^__Secure-carteiro\.session_token=/);
      expect(session).toMatch(/; Secure/i);
      expect(session).toMatch(/HttpOnly/i);
      expect(session).toMatch(/SameSite=Lax/i);
    } finally {
      await t.close();
    }
  });
});

describe('Google sign-in', () => {
  it('is offered only when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set', async () => {
    const off = await createTestApp('pglite');
    try {
      expect((await off.app.inject('/api/public-config')).json().googleSignIn).toBe(false);
      const res = await post(off, '/api/auth/sign-in/social', { provider: 'google', callbackURL: '/dashboard' });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.json().error.message).not.toMatch(/provider/i);
    } finally {
      await off.close();
    }
    const on = await createTestApp('pglite', {
      GOOGLE_CLIENT_ID: 'carteiro-test.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'segredo-de-teste',
      PUBLIC_URL: 'https://app.carteiro.test',
    });
    try {
      expect((await on.app.inject('/api/public-config')).json().googleSignIn).toBe(true);
      // Only builds the authorisation URL: no request leaves the machine.
      const res = await post(on, '/api/auth/sign-in/social', { provider: 'google', callbackURL: '/dashboard' });
      expect(res.statusCode).toBe(200);
      const url = new URL(res.json().url);
      expect(url.origin).toBe('https://accounts.google.com');
      expect(url.searchParams.get('client_id')).toBe('carteiro-test.apps.googleusercontent.com');
      expect(url.searchParams.get('redirect_uri')).toBe('https://app.carteiro.test/api/auth/callback/google');
    } finally {
      await on.close();
    }
  });
});
