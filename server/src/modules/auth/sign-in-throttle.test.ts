import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';

const FREE = 5;
const MAX_DELAY = 100;
let clientCounter = 0;

/** A new client address each call, arriving through the trusted proxy: the per-address limit never trips. */
function viaProxy() {
  clientCounter += 1;
  return { 'x-forwarded-for': `198.51.${(clientCounter >> 8) & 255}.${clientCounter & 255}` };
}

describe.each(DATABASE_KINDS)('per-account sign-in delay on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      TRUSTED_PROXIES: '127.0.0.1',
      SIGN_IN_FREE_FAILURES: String(FREE),
      SIGN_IN_DELAY_MAX_SECONDS: String(MAX_DELAY),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const signIn = (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: '127.0.0.1',
      headers: { origin: t.origin, 'content-type': 'application/json', ...viaProxy() },
      payload: { email, password },
    });

  /** The delay of an e-mail runs out now (as if its seconds had passed). */
  async function expireDelay() {
    await t.database.db.execute(sql`update auth_sign_in_failures set blocked_until = now() - interval '1 second'`);
  }

  it('after the free failures, every client waits — known and unknown e-mails alike — even with the right password', async () => {
    const user = await signUp(t);
    const unknown = `ninguem-${randomUUID().slice(0, 8)}@example.com`;
    for (const email of [user.email, unknown]) {
      for (let i = 0; i < FREE; i++) {
        const res = await signIn(email, 'senha-errada-123');
        expect(res.statusCode, `${email} attempt ${i + 1}`).toBe(401);
        expect(res.json().error.code).toBe('invalid-credential');
      }
    }
    const known = await signIn(user.email, user.password);
    const stranger = await signIn(unknown, 'senha-errada-123');
    for (const res of [known, stranger]) {
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('too-many-requests');
      expect(res.json().error.message).toMatch(
        /^Muitas tentativas de entrar com este e-mail\. Aguarde \d+ segundos e tente de novo, ou entre com um link enviado por e-mail\.$/,
      );
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(30);
    }
    // The same answer for both: nothing tells which address is registered.
    expect(known.json().error.message.replace(/\d+/, 'N')).toBe(stranger.json().error.message.replace(/\d+/, 'N'));
  });

  it('the delay doubles at each further failure up to the maximum; a success ends the run', async () => {
    const user = await signUp(t);
    for (let i = 0; i < FREE; i++) expect((await signIn(user.email, 'errada-000')).statusCode).toBe(401);
    const delays: number[] = [];
    for (let round = 0; round < 3; round++) {
      await expireDelay();
      expect((await signIn(user.email, 'errada-000')).statusCode).toBe(401);
      delays.push(Number((await signIn(user.email, 'errada-000')).headers['retry-after']));
    }
    // 60 s, then 120 s capped at 100, then 100 again.
    expect(delays[0]).toBeGreaterThan(30);
    expect(delays[0]).toBeLessThanOrEqual(60);
    expect(delays[1]).toBeGreaterThan(60);
    expect(delays[1]).toBeLessThanOrEqual(MAX_DELAY);
    expect(delays[2]).toBeGreaterThan(60);
    expect(delays[2]).toBeLessThanOrEqual(MAX_DELAY);

    await expireDelay();
    expect((await signIn(user.email, user.password)).statusCode).toBe(200);
    // The run is over: the next mistake is the first of a new run, answered normally.
    for (let i = 0; i < FREE; i++) expect((await signIn(user.email, 'errada-000')).statusCode).toBe(401);
    expect((await signIn(user.email, user.password)).statusCode).toBe(429);
  });

  it('a burst of parallel guesses from many addresses gets exactly the free attempts checked', async () => {
    const user = await signUp(t);
    const results = await Promise.all(Array.from({ length: 16 }, () => signIn(user.email, 'chute-paralelo')));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16 - FREE);
  });
});
