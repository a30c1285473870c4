import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { hitRateLimit, takeRateLimitQuota } from './rate-limit';

describe.each(DATABASE_KINDS)('the one database-backed limiter (%s)', (kind) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('hitRateLimit lets `limit` hits a window through, counts the refused ones too, and keeps keys apart', async () => {
    const db = database.db;
    // A fixed clock: the five hits are in one window whatever the time the test runs at.
    const now = new Date(Date.UTC(2026, 10, 26, 10, 0, 59));
    const outcomes: boolean[] = [];
    for (let i = 0; i < 5; i++) outcomes.push(await hitRateLimit(db, 'teste:10.0.0.1', 3, 60, now));
    expect(outcomes).toEqual([true, true, true, false, false]);
    expect(await hitRateLimit(db, 'teste:10.0.0.2', 3, 60, now)).toBe(true);
    // A second later is the next window.
    expect(await hitRateLimit(db, 'teste:10.0.0.1', 3, 60, new Date(now.getTime() + 1_000))).toBe(true);
  });

  it('holds across concurrent callers: of 20 hits at once, exactly the limit passes', async () => {
    const db = database.db;
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit(db, 'corrida', 7, 3600)));
    expect(outcomes.filter(Boolean)).toHaveLength(7);
  });

  it('takeRateLimitQuota takes all or nothing, and says when the window ends', async () => {
    const db = database.db;
    const now = new Date(Date.UTC(2026, 10, 26, 10, 0, 45));
    expect(await takeRateLimitQuota(db, 'cota:conta', 3, 5, 60, now)).toEqual({ allowed: true, retryAfterSeconds: 15 });
    // Three more would pass the limit of five: nothing is taken, so the last two units stay available.
    expect(await takeRateLimitQuota(db, 'cota:conta', 3, 5, 60, now)).toEqual({
      allowed: false,
      retryAfterSeconds: 15,
    });
    expect(await takeRateLimitQuota(db, 'cota:conta', 2, 5, 60, now)).toMatchObject({ allowed: true });
    expect(await takeRateLimitQuota(db, 'cota:conta', 1, 5, 60, now)).toMatchObject({ allowed: false });
    // The next window starts afresh.
    expect(await takeRateLimitQuota(db, 'cota:conta', 5, 5, 60, new Date(now.getTime() + 15_000))).toEqual({
      allowed: true,
      retryAfterSeconds: 60,
    });
  });

  it("prunes the windows a day older than the hits' own clock, never the current one of a clock behind the database's", async () => {
    const db = database.db;
    // Every hit prunes (the draw that does it 1 time in 100), on a clock three days behind the database's.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0);
    try {
      const now = new Date(Date.now() - 3 * 86_400_000);
      expect(await hitRateLimit(db, 'antiga', 1, 60, new Date(now.getTime() - 2 * 86_400_000))).toBe(true);
      const outcomes: boolean[] = [];
      for (let i = 0; i < 3; i++)
        outcomes.push(await takeRateLimitQuota(db, 'poda', 1, 2, 60, now).then((q) => q.allowed));
      expect(outcomes).toEqual([true, true, false]);
      expect(await hitRateLimit(db, 'poda:hit', 1, 60, now)).toBe(true);
      expect(await hitRateLimit(db, 'poda:hit', 1, 60, now)).toBe(false);
      const keys = await queryRows<{ key: string }>(
        db,
        sql`select key from public_rate_limits where key in ('antiga', 'poda', 'poda:hit') order by key`,
      );
      expect(keys.map((k) => k.key)).toEqual(['poda', 'poda:hit']);
    } finally {
      random.mockRestore();
    }
  });
});
