import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';

/**
 * Counts one hit for `key` in the current fixed window and answers whether it is within `limit`. One upsert
 * (atomic across processes); old windows are pruned now and then.
 */
export async function hitPublicRateLimit(db: Db, key: string, limit: number, windowSeconds: number): Promise<boolean> {
  const windowStart = new Date(Math.floor(Date.now() / (windowSeconds * 1000)) * windowSeconds * 1000);
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`insert into public_rate_limits (key, window_start, count) values (${key}, ${windowStart.toISOString()}::timestamptz, 1)
        on conflict (key, window_start) do update set count = public_rate_limits.count + 1
        returning count`,
  );
  if (Math.random() < 0.01) {
    await queryRows(db, sql`delete from public_rate_limits where window_start < now() - interval '1 day'`);
  }
  return Number(row?.count ?? 0) <= limit;
}
