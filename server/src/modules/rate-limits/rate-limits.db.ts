import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The fixed-window counters of every database-backed limit (rate-limit.ts), keyed by a namespaced string
 * (`subscribe:<ip>`, `mail-quota:<account>`…), so every server process shares them. The table keeps the name it had
 * when only the public forms used it.
 */
export const rateLimitWindows = pgTable(
  'public_rate_limits',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
