import { MAX_BALANCE_MILLIS, MAX_TOPUP_MILLIS } from '@carteiro/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESET_REQUESTED_MESSAGE } from '../src/modules/auth/auth.routes';
import { randomClientIp, signUp } from './support/sign-in';
import { createTestApp, type TestApp } from './support/test-app';
import { DATABASE_KINDS } from './support/test-database';

const OPERATOR = 'operador-limites@carteiro.test';

/**
 * The lesser abuses of the threat model (docs/threat-model.md): inputs that answered 500, framework text in
 * English, passwords a guesser tries first, operator credits past what a number holds, cached personal data.
 */
describe.each(DATABASE_KINDS)('lesser abuses on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { ADMIN_EMAILS: OPERATOR });
  });
  afterAll(async () => t.close());

  const signUpWith = (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: t.origin, 'content-type': 'application/json' },
      remoteAddress: randomClientIp(),
      payload: { email, password, name: 'Fulano' },
    });

  it('answers a pt-BR 400 for the years 0000 and 9999 in a statement period, never a 500', async () => {
    const user = await signUp(t, { verified: true });
    for (const query of ['from=0000-01-01', 'to=0000-12-31', 'from=0000-01-01&to=0001-01-01']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/billing/statement?${query}`, headers: user.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message).toMatch(/ano a partir de 1900/);
    }
    const late = await t.app.inject({
      method: 'GET',
      url: '/api/billing/statement.csv?from=9999-12-31&to=9999-12-31',
      headers: user.headers,
    });
    expect(late.statusCode).toBe(200);
  });

  it('bounds a top-up: a pt-BR 400 past R$ 100.000,00 or past the balance ceiling, never a charge', async () => {
    const user = await signUp(t, { verified: true });
    const topup = (amountMillis: number) =>
      t.app.inject({ method: 'POST', url: '/api/billing/topups', headers: user.headers, payload: { amountMillis } });
    for (const amountMillis of [MAX_TOPUP_MILLIS + 10, 9e15]) {
      const res = await topup(amountMillis);
      expect(res.statusCode, String(amountMillis)).toBe(400);
      expect(res.json().error.message).toMatch(/O valor máximo de uma recarga é R\$ 100\.000,00\./);
    }
    expect((await topup(MAX_TOPUP_MILLIS)).statusCode).toBe(201);
    // Near the ceiling every operator credit respects, a top-up that would cross it is refused too.
    const { db } = t.database;
    const { accounts } = await import('../src/modules/accounts/accounts.db');
    const { eq, sql } = await import('drizzle-orm');
    await db
      .update(accounts)
      .set({ balanceMillis: sql`${MAX_BALANCE_MILLIS - 50_000}` })
      .where(eq(accounts.id, user.accountId));
    const over = await topup(60_000);
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toMatch(
      /saldo passaria de R\$\s1\.000\.000\.000,00, o máximo que uma conta pode ter/,
    );
    expect((await topup(50_000)).statusCode).toBe(201);
    const listed = await t.app.inject({ method: 'GET', url: '/api/billing/topups', headers: user.headers });
    expect(
      listed
        .json()
        .topups.map((row: { amountMillis: number }) => row.amountMillis)
        .sort((a: number, b: number) => a - b),
    ).toEqual([50_000, MAX_TOPUP_MILLIS]);
  });

  it('bounds an operator credit and the balance it may reach; the balance routes keep answering', async () => {
    const user = await signUp(t, { verified: true });
    const operator = await signUp(t, { verified: true, email: OPERATOR });
    const adjust = (amountMillis: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/accounts/${user.accountId}/adjustments`,
        headers: operator.headers,
        payload: { amountMillis, reason: 'teste de limite' },
      });
    const huge = await adjust(9e15);
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.message).toMatch(/no máximo R\$ 1\.000\.000,00/);
    expect((await adjust(-9e15)).statusCode).toBe(400);
    // Up to the balance ceiling in allowed steps, then one more credit is refused.
    const [first] = [await adjust(1_000_000_000)];
    expect(first?.statusCode).toBe(201);
    const { db } = t.database;
    const { accounts } = await import('../src/modules/accounts/accounts.db');
    const { eq, sql } = await import('drizzle-orm');
    await db
      .update(accounts)
      .set({ balanceMillis: sql`${MAX_BALANCE_MILLIS - 500}` })
      .where(eq(accounts.id, user.accountId));
    const over = await adjust(1_000);
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toMatch(/máximo que uma conta pode ter/);
    expect((await adjust(500)).statusCode).toBe(201);
    const balance = await t.app.inject({ method: 'GET', url: '/api/billing/balance', headers: user.headers });
    expect(balance.statusCode).toBe(200);
    expect(balance.json().balanceMillis).toBe(MAX_BALANCE_MILLIS);
  });

  it('refuses at sign-up a password that contains the e-mail or repeats a few characters (pt-BR 400)', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['fulano.silva@exemplo.com.br', 'fulano.silva@exemplo.com.br', /não pode conter o seu e-mail/],
      ['fulano.silva2@exemplo.com.br', 'FULANO.SILVA2-2024', /não pode conter o seu e-mail/],
      ['repete@exemplo.com.br', 'aaaaaaaa', /repete poucos caracteres/],
      ['alterna@exemplo.com.br', 'abababababab', /repete poucos caracteres/],
    ];
    for (const [email, password, message] of cases) {
      const res = await signUpWith(email, password);
      expect(res.statusCode, password).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'password-does-not-meet-requirements' });
      expect(res.json().error.message).toMatch(message);
    }
    expect((await signUpWith('ana@exemplo.com.br', 'ana-padaria-do-bairro')).statusCode).toBe(200);
  });

  it('refuses the own-e-mail password on change-password too', async () => {
    const user = await signUp(t, { verified: true, email: 'troca.senha@exemplo.com.br' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: { currentPassword: user.password, newPassword: 'troca.senha-nova' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/não pode conter o seu e-mail/);
  });

  it('speaks pt-BR where better-auth and Fastify spoke English', async () => {
    const user = await signUp(t, { verified: true });
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: t.origin, 'content-type': 'application/json' },
      remoteAddress: randomClientIp(),
      payload: { email: user.email, redirectTo: '/auth/reset-password' },
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ status: true, message: PASSWORD_RESET_REQUESTED_MESSAGE });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: t.origin, 'content-type': 'application/json' },
      remoteAddress: randomClientIp(),
      payload: { email: 'ninguem-aqui@exemplo.com.br', redirectTo: '/auth/reset-password' },
    });
    expect(unknown.json()).toEqual(reset.json());

    const errorPage = await t.app.inject({ method: 'GET', url: '/api/auth/error?error=state_mismatch' });
    expect(errorPage.statusCode).toBe(302);
    expect(errorPage.headers.location).toBe('/auth/login?erro=invalid-action-code');

    const long = await t.app.inject({ method: 'GET', url: `/api/contacts/${'a'.repeat(600)}`, headers: user.headers });
    expect(long.statusCode).toBe(404);
    expect(long.json()).toEqual({ error: { code: 'not_found', message: expect.stringMatching(/encontrad/) } });
    const badEscape = await t.app.inject({ method: 'GET', url: '/api/contacts/%E0%A4%A', headers: user.headers });
    expect(badEscape.statusCode).toBeLessThan(500);
    expect(badEscape.body).not.toMatch(/FST_ERR|is not a valid/);
  });

  it('answers a pt-BR 400 for a NUL in a search or a form field, never a 500', async () => {
    const user = await signUp(t, { verified: true });
    const search = await t.app.inject({ method: 'GET', url: '/api/contacts?search=a%00b', headers: user.headers });
    expect(search.statusCode).toBe(400);
    expect(search.json().error.message).toMatch(/caractere inválido \(NUL/);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: user.headers,
      payload: { email: 'nul@destino.com.br', name: 'Ana\u0000Maria' },
    });
    expect(form.statusCode).toBe(400);
    expect(form.json().error.message).toMatch(/caractere inválido \(NUL/);
  });

  it('marks every authenticated API answer Cache-Control: no-store', async () => {
    const user = await signUp(t, { verified: true });
    for (const url of [
      '/api/session',
      '/api/account',
      '/api/account/members',
      '/api/contacts',
      '/api/billing/balance',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: user.headers });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: user.headers });
    expect(session.headers['cache-control']).toMatch(/no-store/);
  });
});
