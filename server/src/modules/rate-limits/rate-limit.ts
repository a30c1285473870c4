import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { Tx } from '../accounts/account-balance';

/**
 * The one database-backed fixed-window limiter (ADR 0034; table `public_rate_limits`, keyed by any string): the
 * per-address limits of the public pages (forms, privacy requests, the public viewer, the TLS ask), the
 * per-account mail quota and the per-account window of segment counts use it, so every one of them holds across
 * processes. Keys are namespaced by their caller
 * (`subscribe:<ip>`, `mail-quota:<account>`…). Two limits are elsewhere on purpose: the public API's per-key limit
 * is folded into its key look-up statement (public-api/rate-limit.ts, one round trip per call), and the auth
 * library keeps its own limiter table for its routes; the engine's per-relay pace is a send rate, not a limit.
 */

function windowOf(windowSeconds: number, nowMs: number) {
  const windowMs = windowSeconds * 1000;
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  return {
    start: new Date(startMs).toISOString(),
    retryAfterSeconds: Math.max(1, Math.ceil((startMs + windowMs - nowMs) / 1000)),
  };
}

/**
 * Deletes, now and then, the windows that ended more than a day before `now` — the clock the hits are counted with,
 * not the database's: a caller counting on a clock of its own (a test's fixed instant) never has its current window
 * pruned under it.
 */
async function pruneNowAndThen(db: Db | Tx, now: Date): Promise<void> {
  if (Math.random() < 0.01) {
    await queryRows(
      db as Db,
      sql`delete from public_rate_limits where window_start < ${now.toISOString()}::timestamptz - interval '1 day'`,
    );
  }
}

/**
 * Counts one hit for `key` in the current fixed window and answers whether it is within `limit`. One upsert
 * (atomic across processes); a refused hit counts too, so hammering keeps the door shut. Old windows are
 * pruned now and then.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  windowSeconds: number,
  now: Date = new Date(),
): Promise<boolean> {
  const { start } = windowOf(windowSeconds, now.getTime());
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`insert into public_rate_limits (key, window_start, count) values (${key}, ${start}::timestamptz, 1)
        on conflict (key, window_start) do update set count = public_rate_limits.count + 1
        returning count`,
  );
  await pruneNowAndThen(db, now);
  return Number(row?.count ?? 0) <= limit;
}

export interface QuotaOutcome {
  allowed: boolean;
  /** Seconds until the current window ends (the Retry-After of a refusal). */
  retryAfterSeconds: number;
}

/**
 * Takes `amount` units from `key`'s quota of `limit` per window, all or nothing: a request that would pass the
 * limit takes nothing (so a refused batch of five does not burn the last four units). One conditional upsert,
 * atomic across processes; inside a caller's transaction it rolls back with it.
 */
export async function takeRateLimitQuota(
  db: Db | Tx,
  key: string,
  amount: number,
  limit: number,
  windowSeconds: number,
  now: Date = new Date(),
): Promise<QuotaOutcome> {
  const { start, retryAfterSeconds } = windowOf(windowSeconds, now.getTime());
  if (amount <= 0) return { allowed: true, retryAfterSeconds };
  const rows = await queryRows<{ count: number }>(
    db as Db,
    sql`insert into public_rate_limits (key, window_start, count)
        select ${key}, ${start}::timestamptz, ${amount}::int where ${amount}::int <= ${limit}::int
        on conflict (key, window_start) do update set count = public_rate_limits.count + excluded.count
          where public_rate_limits.count + excluded.count <= ${limit}::int
        returning count`,
  );
  await pruneNowAndThen(db, now);
  return { allowed: rows.length > 0, retryAfterSeconds };
}
