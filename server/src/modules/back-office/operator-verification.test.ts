import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoutes } from '../../../test/support/admin-routes';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { authUsers } from '../auth/auth.db';

const LISTED = 'chefe@carteiro.test';
const MESSAGE = 'Confirme o seu e-mail para usar o painel de operação do Carteiro: abra o link que enviamos para você.';

describe.each(DATABASE_KINDS)('operator power needs a verified e-mail, on %s', (kind) => {
  let t: TestApp;
  let operator: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind, { ADMIN_EMAILS: `${LISTED},operador@carteiro.test` });
    operator = await signUp(t, { email: 'operador@carteiro.test', verified: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const session = async (user: SignedInUser) =>
    (await t.app.inject({ url: '/api/session', headers: user.headers })).json();

  it('whoever registers an ADMIN_EMAILS address first gets nothing until the mailbox is proven', async () => {
    const squatter = await signUp(t, { email: LISTED });
    expect((await session(squatter)).isOperator).toBe(false);
    const target = await signUp(t, { verified: true });
    // Every back-office route, reads and actions alike: a pt-BR 403 that says what to do, nothing changed.
    const routes = adminRoutes(t);
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const [method, pattern] of routes) {
      const url = pattern.replace(/:id/g, pattern.includes('/accounts/') ? target.accountId : '1');
      const res = await t.app.inject({
        method,
        url,
        headers: squatter.headers,
        payload: method === 'GET' ? undefined : { reason: 'golpe', amountMillis: 1_000_000, priceMillis: 1 },
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toEqual({ code: 'email_not_verified', message: MESSAGE });
    }
    const balance = await t.app.inject({ url: '/api/billing/balance', headers: target.headers });
    expect(balance.json().balanceMillis).toBe(0);

    // Verified (the confirmation link was opened): the back office opens.
    await t.database.db.update(authUsers).set({ emailVerified: true }).where(eq(authUsers.id, squatter.userId));
    expect((await session(squatter)).isOperator).toBe(true);
    expect((await t.app.inject({ url: '/api/admin/accounts', headers: squatter.headers })).statusCode).toBe(200);
  });

  it('a role granted in the back office opens nothing for an unverified user either', async () => {
    const colleague = await signUp(t);
    const grant = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operators',
      headers: operator.headers,
      payload: { email: colleague.email, reason: 'Entrou no suporte' },
    });
    expect(grant.statusCode, grant.body).toBe(201);
    expect((await session(colleague)).isOperator).toBe(false);
    const refused = await t.app.inject({ url: '/api/admin/accounts', headers: colleague.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('email_not_verified');
    // Someone never named an operator gets the plain 403.
    const stranger = await signUp(t);
    const forbidden = await t.app.inject({ url: '/api/admin/accounts', headers: stranger.headers });
    expect(forbidden.json().error.code).toBe('forbidden');
  });
});
