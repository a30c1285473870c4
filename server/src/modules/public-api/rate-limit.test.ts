import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyFor } from '../../../test/support/api-key';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, openDatabase, queryRows } from '../../db/database';
import { apiKeys, apiRateLimits } from './api-keys.db';
import { authenticateAndHitRateLimit } from './rate-limit';

describe.each(DATABASE_KINDS)('key look-up and rate limit in one statement on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds the key, writes its last use, counts the request in its window; a revoked key counts nothing', async () => {
    const user = await signUp(t, { verified: true });
    const secret = await createApiKeyFor(t, user, 'send_only');
    const db = t.database.db;
    // 30 s into a minute of today: a window older than a day may be pruned by any call (pruneNowAndThen).
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);

    const first = await authenticateAndHitRateLimit(db, secret, 2, 60, now);
    expect(first?.key).toMatchObject({ accountId: user.accountId, scope: 'send_only' });
    expect(first?.limit).toEqual({ limit: 2, remaining: 1, resetSeconds: 30, allowed: true });
    const keyId = first?.key.keyId as string;
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row?.lastUsedAt).not.toBeNull();

    expect((await authenticateAndHitRateLimit(db, secret, 2, 60, new Date(now.getTime() + 1000)))?.limit).toMatchObject(
      {
        remaining: 0,
        allowed: true,
      },
    );
    expect((await authenticateAndHitRateLimit(db, secret, 2, 60, new Date(now.getTime() + 2000)))?.limit).toMatchObject(
      {
        remaining: 0,
        allowed: false,
      },
    );
    // The next window starts again.
    expect(
      (await authenticateAndHitRateLimit(db, secret, 2, 60, new Date(now.getTime() + 60_000)))?.limit,
    ).toMatchObject({
      remaining: 1,
      allowed: true,
    });

    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId));
    expect(await authenticateAndHitRateLimit(db, secret, 2, 60, new Date(now.getTime() + 61_000))).toBeNull();
    const windows = await db.select().from(apiRateLimits).where(eq(apiRateLimits.accountId, user.accountId));
    expect(windows.map((w) => w.count).sort()).toEqual([1, 3]);

    expect(await authenticateAndHitRateLimit(db, 'ct_live_curta', 2, 60, now)).toBeNull();
    expect(await authenticateAndHitRateLimit(db, `ct_live_${'A'.repeat(43)}`, 2, 60, now)).toBeNull();
  });

  it('counts every key of an account in one window: a second key does not raise the limit', async () => {
    const user = await signUp(t, { verified: true });
    const first = await createApiKeyFor(t, user, 'send_only');
    const second = await createApiKeyFor(t, user, 'full');
    const other = await createApiKeyFor(t, await signUp(t, { verified: true }), 'full');
    const db = t.database.db;
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000 + 10_000);

    expect((await authenticateAndHitRateLimit(db, first, 3, 60, now))?.limit.remaining).toBe(2);
    expect((await authenticateAndHitRateLimit(db, second, 3, 60, new Date(now.getTime() + 1)))?.limit.remaining).toBe(
      1,
    );
    expect((await authenticateAndHitRateLimit(db, first, 3, 60, new Date(now.getTime() + 2)))?.limit.remaining).toBe(0);
    expect((await authenticateAndHitRateLimit(db, second, 3, 60, new Date(now.getTime() + 3)))?.limit.allowed).toBe(
      false,
    );
    // Another account has its own window.
    expect((await authenticateAndHitRateLimit(db, other, 3, 60, new Date(now.getTime() + 4)))?.limit).toMatchObject({
      remaining: 2,
      allowed: true,
    });
    const [window] = await db.select().from(apiRateLimits).where(eq(apiRateLimits.accountId, user.accountId));
    expect(window?.count).toBe(4);
  });

  it('requests that arrive together share one key statement, each counted as if alone in arrival order', async () => {
    const a = await signUp(t, { verified: true });
    const [a1, a2] = [await createApiKeyFor(t, a, 'send_only'), await createApiKeyFor(t, a, 'full')];
    const b = await signUp(t, { verified: true });
    const b1 = await createApiKeyFor(t, b, 'full');
    const gone = await signUp(t, { verified: true });
    const revoked = await createApiKeyFor(t, gone, 'full');
    const db = t.database.db;
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.accountId, gone.accountId));
    const unknown = `ct_live_${'C'.repeat(43)}`;
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 7_200_000 + 20_000);

    // The first runs alone at once; the ten that arrive while it is in flight go as one round.
    const secrets = [a1, a1, b1, a2, revoked, unknown, a1, b1, a2, a1, a1];
    const found = await Promise.all(secrets.map((secret) => authenticateAndHitRateLimit(db, secret, 5, 60, now)));
    // The first is a round of one; the last is the tenth of the next round (the revoked and unknown keys hold places).
    expect(found.map((f) => Number(f?.read.i ?? 0))).toEqual([1, 1, 2, 3, 0, 0, 6, 7, 8, 9, 10]);
    expect(found[4]).toBeNull();
    expect(found[5]).toBeNull();
    // Account A's seven requests are its window's 1st … 7th: five allowed, in the order they arrived.
    const ofA = found.filter((f) => f?.key.accountId === a.accountId).map((f) => f?.limit);
    expect(ofA.map((l) => l?.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    expect(ofA.map((l) => l?.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(found.filter((f) => f?.key.accountId === b.accountId).map((f) => f?.limit.remaining)).toEqual([4, 3]);
    expect(found[3]?.key).toMatchObject({ accountId: a.accountId, scope: 'full' });
    const windows = await db
      .select()
      .from(apiRateLimits)
      .where(eq(apiRateLimits.windowStart, new Date(now.getTime() - 20_000)));
    expect(Object.fromEntries(windows.map((w) => [w.accountId, w.count]))).toMatchObject({
      [a.accountId]: 7,
      [b.accountId]: 2,
    });
    const used = await db.select().from(apiKeys).where(eq(apiKeys.accountId, a.accountId));
    expect(used.map((k) => k.lastUsedAt)).not.toContain(null);

    // A round that straddles two windows counts each request in its own.
    const windowEnd = now.getTime() + 40_000;
    const straddling = await Promise.all(
      [-2, -1, 0, 1, 2].map((ms) => authenticateAndHitRateLimit(db, b1, 5, 60, new Date(windowEnd + ms))),
    );
    expect(straddling.map((f) => f?.limit.remaining)).toEqual([2, 1, 4, 3, 2]);
  });

  it('two processes whose rounds mix the same accounts in opposite orders count every request exactly once', async () => {
    // A second process on PostgreSQL: its own pool on the same database, so its own queues and rounds (coalesce is
    // per Db). PGlite is one process by construction: there the same handle takes both waves.
    const other =
      kind === 'postgres' && t.database.url
        ? await openDatabase({ kind: 'postgres', url: t.database.url, poolSize: 4 })
        : null;
    const second = other?.db ?? t.database.db;
    try {
      const a = await signUp(t, { verified: true });
      const b = await signUp(t, { verified: true });
      const [keyA, keyB] = [await createApiKeyFor(t, a, 'full'), await createApiKeyFor(t, b, 'full')];
      const now = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 10_800_000 + 5_000);
      const waves = 8;
      const found: Awaited<ReturnType<typeof authenticateAndHitRateLimit>>[] = [];
      for (let wave = 0; wave < waves; wave++) {
        // Each wave: a lone request per process, then a round each — one process A-first, the other B-first.
        found.push(
          ...(await Promise.all([
            ...[keyA, keyA, keyB, keyA, keyB].map((k) => authenticateAndHitRateLimit(t.database.db, k, 1000, 60, now)),
            ...[keyB, keyB, keyA, keyB, keyA].map((k) => authenticateAndHitRateLimit(second, k, 1000, 60, now)),
          ])),
        );
      }
      const counts = (accountId: string) =>
        found
          .filter((f) => f?.key.accountId === accountId)
          .map((f) => 1000 - (f?.limit.remaining ?? 0))
          .sort((x, y) => x - y);
      // Every request got its own place in its account's window: 1 … n, none twice, none lost.
      const n = (waves * 10) / 2;
      expect(counts(a.accountId)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(counts(b.accountId)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      const windows = await t.database.db
        .select()
        .from(apiRateLimits)
        .where(eq(apiRateLimits.windowStart, new Date(now.getTime() - 5_000)));
      expect(Object.fromEntries(windows.map((w) => [w.accountId, w.count]))).toMatchObject({
        [a.accountId]: n,
        [b.accountId]: n,
      });
    } finally {
      await other?.close();
    }
  });

  it('commits its counter asynchronously, and only its own transaction: the next one commits synchronously again', async () => {
    const user = await signUp(t, { verified: true });
    const secret = await createApiKeyFor(t, user, 'send_only');
    const db = t.database.db;
    const setting = async (q: Db) =>
      (await queryRows<{ s: string }>(q, sql`select current_setting('synchronous_commit') as s`))[0]?.s;
    // Inside one transaction (one connection) we can see what the statement set for its transaction...
    const inside = await db.transaction(async (tx) => {
      const hit = await authenticateAndHitRateLimit(tx as unknown as Db, secret, 100, 60);
      expect(hit?.key.accountId).toBe(user.accountId);
      return setting(tx as unknown as Db);
    });
    expect(inside).toBe('off');
    // ...and that it does not outlive it (money, ledger and idempotency commits stay durable on that connection).
    const before = await setting(db);
    expect(before).toBe('on');
    await authenticateAndHitRateLimit(db, secret, 100, 60);
    expect(await setting(db)).toBe('on');
    // An unknown key writes nothing, so it needs no commit at all: the setting is not touched.
    const unknown = await db.transaction(async (tx) => {
      expect(await authenticateAndHitRateLimit(tx as unknown as Db, `ct_live_${'B'.repeat(43)}`, 100, 60)).toBeNull();
      return setting(tx as unknown as Db);
    });
    expect(unknown).toBe('on');
  });
});
