import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';

/**
 * API keys of the public REST API v1 (ADR 0014). Only the SHA-256 of the whole key is stored (the key
 * is 256 random bits, so a plain hash is enough — no salt or slow hash needed), plus the first characters for
 * display. Every request looks the hash up, so a revoked key is refused at once by every process.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope', { enum: ['full', 'send_only'] }).notNull(),
    /** The first characters of the key (`ct_live_8f3a`), shown in lists. */
    prefix: text('prefix').notNull(),
    /** Lowercase hex SHA-256 of the whole key. */
    keyHash: text('key_hash').notNull(),
    createdByUserId: text('created_by_user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Updated at most once a minute per key (not a write per request). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedByUserId: text('revoked_by_user_id'),
  },
  (t) => [uniqueIndex('api_keys_key_hash_idx').on(t.keyHash), index('api_keys_account_idx').on(t.accountId)],
);

/**
 * Fixed-window request counters per account (every key of the account counts in the same window: a second key
 * does not double the limit), in the database so the limit holds across processes.
 */
export const apiRateLimits = pgTable(
  'api_rate_limits',
  {
    accountId: uuid('account_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.windowStart] })],
);

/**
 * `Idempotency-Key` claims: the first request inserts the row (unique per account and key) and runs; it then
 * stores its answer here. A repeat with the same request fingerprint within 24 h gets the stored answer; a
 * repeat with another fingerprint gets 422. A claim still `pending` after a few minutes was abandoned (the
 * process died) and may be taken over.
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of method, path and the canonical JSON body. */
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['pending', 'done'] })
      .notNull()
      .default('pending'),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    responseContentType: text('response_content_type'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the claim was (re)taken; a pending claim older than the lease is abandoned. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_idempotency_keys_account_key_idx').on(t.accountId, t.idempotencyKey),
    index('api_idempotency_keys_created_idx').on(t.createdAt),
    index('api_idempotency_keys_pending_idx').on(t.claimedAt).where(sql`state = 'pending'`),
  ],
);
