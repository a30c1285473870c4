import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  allowed: boolean;
}

/**
 * Counts one request of an API key in the current fixed window (one atomic upsert, so the limit holds across
 * every process on the database) and answers where the key stands. Windows older than a day are pruned now
 * and then.
 */
export async function hitApiRateLimit(
  db: Db,
  apiKeyId: string,
  limit: number,
  windowSeconds: number,
  nowMs: number = Date.now(),
): Promise<RateLimitState> {
  const windowMs = windowSeconds * 1000;
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`insert into api_rate_limits (api_key_id, window_start, count)
        values (${apiKeyId}, ${new Date(startMs).toISOString()}::timestamptz, 1)
        on conflict (api_key_id, window_start) do update set count = api_rate_limits.count + 1
        returning count`,
  );
  if (Math.random() < 0.001) {
    await queryRows(db, sql`delete from api_rate_limits where window_start < now() - interval '1 day'`);
  }
  const count = Number(row?.count ?? 0);
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((startMs + windowMs - nowMs) / 1000)),
    allowed: count <= limit,
  };
}
