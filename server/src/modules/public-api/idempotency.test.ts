import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { signUp } from '../../../test/support/sign-in';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { accounts } from '../accounts/accounts.db';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { creditAccount } from '../sending/testing/send-fixtures';
import {
  canonicalJson,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
} from './idempotency';

describe('request fingerprint', () => {
  it('ignores key order but not values, method or path', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 4, e: 5 }] } })).toBe(
      '{"a":{"c":[3,{"e":5,"f":4}],"d":2},"b":1}',
    );
    const base = requestFingerprint('POST', '/api/v1/contacts', { email: 'a@x.com', name: 'A' });
    expect(requestFingerprint('POST', '/api/v1/contacts', { name: 'A', email: 'a@x.com' })).toBe(base);
    expect(requestFingerprint('POST', '/api/v1/contacts', { email: 'b@x.com', name: 'A' })).not.toBe(base);
    expect(requestFingerprint('PUT', '/api/v1/contacts', { email: 'a@x.com', name: 'A' })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/lists', { email: 'a@x.com', name: 'A' })).not.toBe(base);
  });
});

describe.each(DATABASE_KINDS)('idempotency claims on %s', (kind) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let accountId: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    accountId = (await createTestAccount(database.db)).id;
  });
  afterAll(async () => {
    await database.close();
  });

  it('replays a finished claim with its status, body and content type', async () => {
    const first = await claimIdempotencyKey(database.db, accountId, 'k-done', 'h1');
    expect(first.kind).toBe('run');
    if (first.kind !== 'run') return;
    await completeIdempotencyKey(database.db, first.id, {
      status: 201,
      body: '{"ok":true}',
      contentType: 'application/json',
    });
    expect(await claimIdempotencyKey(database.db, accountId, 'k-done', 'h1')).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"ok":true}',
      contentType: 'application/json',
    });
    await expect(claimIdempotencyKey(database.db, accountId, 'k-done', 'h2')).rejects.toMatchObject({
      code: 'idempotency_key_reused',
      status: 422,
    });
  });

  it('lets a retry run again after a 5xx released the claim', async () => {
    const first = await claimIdempotencyKey(database.db, accountId, 'k-failed', 'h1');
    if (first.kind !== 'run') throw new Error('expected run');
    await releaseIdempotencyKey(database.db, first.id);
    expect((await claimIdempotencyKey(database.db, accountId, 'k-failed', 'h1')).kind).toBe('run');
  });

  it('takes over a claim abandoned by a dead process, and forgets keys after 24 hours', async () => {
    const first = await claimIdempotencyKey(database.db, accountId, 'k-abandoned', 'h1');
    if (first.kind !== 'run') throw new Error('expected run');
    await queryRows(
      database.db,
      sql`update api_idempotency_keys set claimed_at = now() - interval '10 minutes' where id = ${first.id}`,
    );
    expect(await claimIdempotencyKey(database.db, accountId, 'k-abandoned', 'h1')).toEqual({
      kind: 'run',
      id: first.id,
    });

    const old = await claimIdempotencyKey(database.db, accountId, 'k-old', 'h1');
    if (old.kind !== 'run') throw new Error('expected run');
    await completeIdempotencyKey(database.db, old.id, { status: 200, body: '{}', contentType: 'application/json' });
    await queryRows(
      database.db,
      sql`update api_idempotency_keys set created_at = now() - interval '25 hours' where id = ${old.id}`,
    );
    // Past 24 h the key is free again, even for another request.
    expect((await claimIdempotencyKey(database.db, accountId, 'k-old', 'h2')).kind).toBe('run');
  });
});

describe.each(DATABASE_KINDS)(
  'Idempotency-Key replays only outcomes that cannot change by themselves, on %s',
  (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, { API_RATE_LIMIT: '100000' });
    });
    afterAll(async () => {
      await t.close();
    });

    const SENDER = 'pedidos@loja.com.br';
    const message = { to: { email: 'cliente@example.com' }, from: { email: SENDER }, subject: 'Pedido', text: 'Oi' };
    const post = (secret: string, url: string, payload: unknown, key: string) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: bearer(secret, { 'content-type': 'application/json', 'idempotency-key': key }),
        payload: payload as object,
      });
    const balanceOf = async (accountId: string) =>
      (await t.database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]?.balanceMillis;

    it('runs again after a top-up (402 not kept), then replays the success without charging twice', async () => {
      const user = await signUp(t, { verified: true });
      await trustSenderAddress(t.database.db, user.accountId, SENDER);
      const secret = await createApiKeyFor(t, user, 'send_only');
      const short = await post(secret, '/api/v1/messages', message, 'pedido-1');
      expect(short.statusCode, short.body).toBe(402);
      expect(short.json().error.code).toBe('insufficient_balance');
      await creditAccount(t.database.db, user.accountId, 1_000);

      const sent = await post(secret, '/api/v1/messages', message, 'pedido-1');
      expect(sent.statusCode, sent.body).toBe(201);
      expect(sent.headers['idempotent-replayed']).toBeUndefined();
      expect(await balanceOf(user.accountId)).toBe(995);
      const replay = await post(secret, '/api/v1/messages', message, 'pedido-1');
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(sent.json());
      expect(await balanceOf(user.accountId)).toBe(995);
    });

    it('runs again once the sender is verified (403 sender_not_verified not kept)', async () => {
      const user = await signUp(t, { verified: true });
      await creditAccount(t.database.db, user.accountId, 1_000);
      const secret = await createApiKeyFor(t, user, 'send_only');
      const refused = await post(secret, '/api/v1/messages', message, 'pedido-2');
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().error.code).toBe('sender_not_verified');
      await trustSenderAddress(t.database.db, user.accountId, SENDER);
      const sent = await post(secret, '/api/v1/messages', message, 'pedido-2');
      expect(sent.statusCode, sent.body).toBe(201);
      expect(sent.headers['idempotent-replayed']).toBeUndefined();
      expect(await balanceOf(user.accountId)).toBe(995);
    });

    it('runs again after a 409 and a 429 are resolved, and keeps a validation error (same body → same 400)', async () => {
      const user = await signUp(t, { verified: true });
      const secret = await createApiKeyFor(t, user);
      const created = await post(
        secret,
        '/api/v1/contacts',
        { email: 'ana@example.com', legalBasis: 'consent' },
        'contato-ana-1',
      );
      expect(created.statusCode).toBe(201);
      const duplicate = await post(
        secret,
        '/api/v1/contacts',
        { email: 'ana@example.com', legalBasis: 'consent' },
        'contato-ana-2',
      );
      expect(duplicate.json().error.code).toBe('contact_exists');
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/contacts/${created.json().id}`,
        headers: bearer(secret),
      });
      expect(removed.statusCode).toBe(204);
      const again = await post(
        secret,
        '/api/v1/contacts',
        { email: 'ana@example.com', legalBasis: 'consent' },
        'contato-ana-2',
      );
      expect(again.statusCode, again.body).toBe(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();

      // 429: the account's window spent, then a new window — the same key runs.
      const windowStart = sql`to_timestamp(floor(extract(epoch from now()) / 60) * 60)`;
      await queryRows(
        t.database.db,
        sql`insert into api_rate_limits (account_id, window_start, count)
          select ${user.accountId}, ${windowStart} + make_interval(secs => s), 100000 from unnest(array[0, 60]) s
          on conflict (account_id, window_start) do update set count = 100000`,
      );
      const limited = await post(
        secret,
        '/api/v1/contacts',
        { email: 'bia@example.com', legalBasis: 'consent' },
        'contato-bia',
      );
      expect(limited.statusCode).toBe(429);
      await queryRows(t.database.db, sql`delete from api_rate_limits where account_id = ${user.accountId}`);
      const afterWait = await post(
        secret,
        '/api/v1/contacts',
        { email: 'bia@example.com', legalBasis: 'consent' },
        'contato-bia',
      );
      expect(afterWait.statusCode, afterWait.body).toBe(201);

      const invalid = await post(secret, '/api/v1/contacts', { email: 'não é e-mail' }, 'contato-ruim');
      expect(invalid.statusCode).toBe(400);
      const replayed = await post(secret, '/api/v1/contacts', { email: 'não é e-mail' }, 'contato-ruim');
      expect(replayed.statusCode).toBe(400);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.json()).toEqual(invalid.json());
    });
  },
);
