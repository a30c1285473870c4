import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor, createSecondApp } from '../../../test/support/api-key';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { accountMembers } from '../accounts/accounts.db';
import { apiKeys } from './api-keys.db';

const json = { 'content-type': 'application/json' };

describe.each(DATABASE_KINDS)('API keys and the /api/v1 gate on %s', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  let owner: SignedInUser;
  let stranger: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind, { API_RATE_LIMIT: '1000' });
    other = await createSecondApp(t, { API_RATE_LIMIT: '1000' });
    owner = await signUp(t, { verified: true, name: 'Olívia Dona' });
    stranger = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('shows the key once, stores only its SHA-256 and lists it by prefix with creator and last use', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...owner.headers, ...json },
      payload: { name: 'ERP', scope: 'full' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json();
    expect(created.secret).toMatch(/^ct_live_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.secret.slice(0, 12));
    expect(created.createdBy).toMatchObject({ userId: owner.userId, name: 'Olívia Dona', email: owner.email });

    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.keyHash).toBe(createHash('sha256').update(created.secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(12));

    const list = await t.app.inject({ url: '/api/api-keys', headers: owner.headers });
    expect(list.body).not.toContain(created.secret.slice(12));
    const listed = list.json().items.find((k: { id: string }) => k.id === created.id);
    expect(listed).toMatchObject({ name: 'ERP', scope: 'full', prefix: created.prefix, lastUsedAt: null });

    expect((await t.app.inject({ url: '/api/v1/contacts', headers: bearer(created.secret) })).statusCode).toBe(200);
    const after = (await t.app.inject({ url: '/api/api-keys', headers: owner.headers })).json();
    expect(after.items.find((k: { id: string }) => k.id === created.id).lastUsedAt).not.toBeNull();
  });

  it('validates the name and scope in pt-BR', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...owner.headers, ...json },
      payload: { name: ' ', scope: 'tudo' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('Informe um nome para a chave');
  });

  it('lets members read the keys but only owners and admins create and revoke', async () => {
    const member = await signUp(t, { verified: true });
    await t.database.db
      .insert(accountMembers)
      .values({ accountId: owner.accountId, userId: member.userId, role: 'member' });
    const headers = { ...member.headers, 'x-account-id': owner.accountId };
    expect((await t.app.inject({ url: '/api/api-keys', headers })).statusCode).toBe(200);
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...headers, ...json },
      payload: { name: 'Minha' },
    });
    expect(create.statusCode).toBe(403);
    const keyId = (await t.app.inject({ url: '/api/api-keys', headers })).json().items[0].id;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${keyId}`, headers })).statusCode).toBe(403);
    await t.database.db.update(accountMembers).set({ role: 'admin' }).where(eq(accountMembers.userId, member.userId));
    const asAdmin = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...headers, ...json },
      payload: { name: 'Do admin', scope: 'send_only' },
    });
    expect(asAdmin.statusCode).toBe(201);
    expect(asAdmin.json().scope).toBe('send_only');
  });

  it('refuses a missing, malformed or unknown key with a pt-BR 401', async () => {
    for (const authorization of [
      undefined,
      'Basic abc',
      'Bearer',
      'Bearer ct_live_nao-existe',
      `Bearer ct_live_${'a'.repeat(43)}`,
    ]) {
      const res = await t.app.inject({ url: '/api/v1/contacts', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toMatchObject({ code: 'invalid_api_key' });
      expect(res.json().error.message).toContain('Chave de API');
    }
  });

  it('never accepts a key in the query string', async () => {
    const secret = await createApiKeyFor(t, owner);
    for (const url of [
      `/api/v1/contacts?api_key=${secret}`,
      `/api/v1/contacts?q=${secret}`,
      '/api/v1/contacts?token=x',
    ]) {
      const res = await t.app.inject({ url, headers: bearer(secret) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('api_key_in_url');
    }
  });

  it('refuses a revoked key at once on every process', async () => {
    const secret = await createApiKeyFor(t, owner);
    expect((await other.inject({ url: '/api/v1/contacts', headers: bearer(secret) })).statusCode).toBe(200);
    const id = (await t.app.inject({ url: '/api/api-keys', headers: owner.headers }))
      .json()
      .items.find((k: { prefix: string }) => secret.startsWith(k.prefix)).id;
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: owner.headers });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revokedAt).not.toBeNull();
    for (const app of [t.app, other]) {
      const res = await app.inject({ url: '/api/v1/contacts', headers: bearer(secret) });
      expect(res.statusCode).toBe(401);
    }
  });

  it('lets no account see or revoke the keys of another', async () => {
    const secret = await createApiKeyFor(t, owner);
    const id = (await t.app.inject({ url: '/api/api-keys', headers: owner.headers }))
      .json()
      .items.find((k: { prefix: string }) => secret.startsWith(k.prefix)).id;
    expect((await t.app.inject({ url: '/api/api-keys', headers: stranger.headers })).json().items).toEqual([]);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${id}`, headers: stranger.headers });
    expect(res.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/v1/contacts', headers: bearer(secret) })).statusCode).toBe(200);
  });

  it('scopes every call to the key’s account', async () => {
    const mine = await createApiKeyFor(t, owner);
    const theirs = await createApiKeyFor(t, stranger);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: bearer(mine, json),
      payload: { email: 'so-da-olivia@example.com', legalBasis: 'consent' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect((await t.app.inject({ url: `/api/v1/contacts/${id}`, headers: bearer(mine) })).statusCode).toBe(200);
    const foreign = await t.app.inject({ url: `/api/v1/contacts/${id}`, headers: bearer(theirs) });
    expect(foreign.statusCode).toBe(404);
    const list = (await t.app.inject({ url: '/api/v1/contacts', headers: bearer(theirs) })).json();
    expect(list.items.map((c: { email: string }) => c.email)).not.toContain('so-da-olivia@example.com');
  });

  it('refuses a send-only key everywhere but sending', async () => {
    const secret = await createApiKeyFor(t, owner, 'send_only');
    const res = await t.app.inject({ url: '/api/v1/contacts', headers: bearer(secret) });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'api_key_scope' });
    expect(res.json().error.message).toContain('somente envio');
  });
});

describe.each(DATABASE_KINDS)('per-account rate limit across processes on %s', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  let owner: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind, { API_RATE_LIMIT: '3', API_RATE_LIMIT_WINDOW_SECONDS: '3600' });
    other = await createSecondApp(t, { API_RATE_LIMIT: '3', API_RATE_LIMIT_WINDOW_SECONDS: '3600' });
    owner = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('counts an account’s requests on both instances and answers a pt-BR 429 with RateLimit headers', async () => {
    const secret = await createApiKeyFor(t, owner);
    const fresh = await createApiKeyFor(t, owner, 'full', 'Outra');
    const first = await t.app.inject({ url: '/api/v1/contacts', headers: bearer(secret) });
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('3');
    expect(first.headers['ratelimit-remaining']).toBe('2');
    expect(first.headers['ratelimit-policy']).toBe('3;w=3600');
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(
      (await other.inject({ url: '/api/v1/contacts', headers: bearer(secret) })).headers['ratelimit-remaining'],
    ).toBe('1');
    expect((await t.app.inject({ url: '/api/v1/contacts', headers: bearer(secret) })).statusCode).toBe(200);
    const limited = await other.inject({ url: '/api/v1/contacts', headers: bearer(secret) });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error.code).toBe('too_many_requests');
    expect(limited.json().error.message).toContain('Limite de 3 requisições');
    // Another key of the same account shares the account's budget; another account has its own.
    expect((await t.app.inject({ url: '/api/v1/contacts', headers: bearer(fresh) })).statusCode).toBe(429);
    const stranger = await createApiKeyFor(t, await signUp(t, { verified: true }));
    expect((await t.app.inject({ url: '/api/v1/contacts', headers: bearer(stranger) })).statusCode).toBe(200);
  });
});

describe.each(DATABASE_KINDS)('Idempotency-Key on %s', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  let owner: SignedInUser;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { API_RATE_LIMIT: '1000' });
    other = await createSecondApp(t, { API_RATE_LIMIT: '1000' });
    owner = await signUp(t, { verified: true });
    secret = await createApiKeyFor(t, owner);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const post = (app: FastifyInstance, key: string, payload: unknown) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: bearer(secret, { ...json, 'idempotency-key': key }),
      payload: { legalBasis: 'consent', ...(payload as object) },
    });
  const countContacts = async (email: string) =>
    (await t.app.inject({ url: `/api/v1/contacts?search=${encodeURIComponent(email)}`, headers: bearer(secret) }))
      .json()
      .items.filter((c: { email: string }) => c.email === email).length;

  it('replays the first answer for the same key and body, and does nothing again', async () => {
    const first = await post(t.app, 'pedido-1001', { email: 'idem@example.com', name: 'Idem' });
    expect(first.statusCode).toBe(201);
    const again = await post(other, 'pedido-1001', { name: 'Idem', email: 'idem@example.com' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countContacts('idem@example.com')).toBe(1);
  });

  it('replays an error answer too, and a 422 for the same key with another body', async () => {
    const dup = await post(t.app, 'pedido-1002', { email: 'idem@example.com' });
    expect(dup.statusCode).toBe(409);
    expect((await post(t.app, 'pedido-1002', { email: 'idem@example.com' })).statusCode).toBe(409);
    const reused = await post(t.app, 'pedido-1001', { email: 'outra@example.com' });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    expect(reused.json().error.message).toContain('Idempotency-Key');
    expect(await countContacts('outra@example.com')).toBe(0);
  });

  it('refuses an invalid Idempotency-Key in pt-BR', async () => {
    const res = await post(t.app, 'x'.repeat(256), { email: 'longa@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('idempotency_key_invalid');
  });

  it('runs a key once when two processes race with it', async () => {
    for (let i = 0; i < 5; i++) {
      const email = `corrida-${i}@example.com`;
      const answers = await Promise.all([
        post(t.app, `corrida-${i}`, { email }),
        post(other, `corrida-${i}`, { email }),
        post(t.app, `corrida-${i}`, { email }),
      ]);
      for (const answer of answers) expect(answer.statusCode).toBe(201);
      expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
      expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
      expect(await countContacts(email)).toBe(1);
    }
  });

  it('keeps keys per account: another account may use the same Idempotency-Key', async () => {
    const stranger = await signUp(t, { verified: true });
    const theirs = await createApiKeyFor(t, stranger);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: bearer(theirs, { ...json, 'idempotency-key': 'pedido-1001' }),
      payload: { email: 'idem@example.com', legalBasis: 'consent' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });
});
