import { apiKeyModeOf } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import {
  type Db,
  type PrebuiltStatement,
  prebuildStatement,
  queryPrebuilt,
  queryRows,
  type SlotKind,
  type SlotValues,
} from '../../db/database';
import { type ApiKeyContext, hashApiKey, isWellFormedApiKey } from './api-keys';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  allowed: boolean;
}

function windowOf(nowMs: number, windowSeconds: number) {
  const windowMs = windowSeconds * 1000;
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  return { startMs, endMs: startMs + windowMs };
}

function stateOf(count: number, limit: number, endMs: number, nowMs: number): RateLimitState {
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((endMs - nowMs) / 1000)),
    allowed: count <= limit,
  };
}

/** Deletes, now and then, the windows that ended more than a day before `nowMs`, the clock the hits are counted with. */
async function pruneNowAndThen(db: Db, nowMs: number): Promise<void> {
  if (Math.random() < 0.001) {
    await queryRows(
      db,
      sql`delete from api_rate_limits where window_start < ${new Date(nowMs).toISOString()}::timestamptz - interval '1 day'`,
    );
  }
}

const KEY_SLOTS = { keyHash: 'text', windowStart: 'text' } as const;
type KeySlots = typeof KEY_SLOTS;

/**
 * The key statement's SQL (see authenticateAndHitRateLimit), with an operation's read riding on it when `rider` is
 * given: its select, over the key's account (`k.account_id`), joined to the key's row — the rider's columns follow
 * the key's (they must not be named id, account_id, scope, count or touched). No key, no rider row.
 */
export function keyStatementSql(v: SlotValues<KeySlots>, rider?: (accountId: SQL) => SQL): SQL {
  return sql`with k as (
          select id, account_id, scope,
                 (last_used_at is null or last_used_at < now() - interval '1 minute') as stale,
                 set_config('synchronous_commit', 'off', true) as async_commit
            from api_keys where key_hash = ${v.keyHash} and revoked_at is null),
        touched as (
          update api_keys set last_used_at = now() where id in (select id from k where stale) returning id),
        hit as (
          insert into api_rate_limits (account_id, window_start, count)
          select account_id, ${v.windowStart}::timestamptz, 1 from k
          on conflict (account_id, window_start) do update set count = api_rate_limits.count + 1
          returning count)
        select k.id, k.account_id, k.scope, (select count from hit) as count,
               (select count(*) from touched) as touched${rider ? sql`, rider.*` : sql``}
          from k${rider ? sql` left join lateral (${rider(sql`k.account_id`)}) as rider on true` : sql``}`;
}

const keyStatement = prebuildStatement('public_api_authenticate_and_hit_rate_limit', KEY_SLOTS, (v) =>
  keyStatementSql(v),
);

/**
 * An operation's read folded into the key statement (one round trip for both, ADR 0019): a statement of its own
 * (name and text), built once per process from the read's SQL over the key's account and its own slots.
 */
export interface KeyRiderStatement<S extends Record<string, SlotKind>> {
  statement: PrebuiltStatement<KeySlots & S>;
}

/** Builds the key statement with `read` riding on it (keyStatementSql); `name` is its prepared statement's. */
export function keyRiderStatement<S extends Record<string, SlotKind>>(
  name: string,
  slots: S,
  read: (accountId: SQL, values: SlotValues<S>) => SQL,
): KeyRiderStatement<S> {
  for (const slot of Object.keys(slots)) {
    if (slot in KEY_SLOTS) throw new Error(`key rider ${name}: slot ${slot} is the key statement's own`);
  }
  return {
    statement: prebuildStatement(name, { ...KEY_SLOTS, ...slots }, (v) =>
      keyStatementSql(v, (accountId) => read(accountId, v)),
    ),
  };
}

/** A rider statement with this request's values for its own slots. */
export interface KeyRider<S extends Record<string, SlotKind> = Record<string, SlotKind>> {
  rider: KeyRiderStatement<S>;
  values: SlotValues<S>;
}

/**
 * The request path of every `/api/v1` call in ONE statement (one round trip instead of two or three): the active
 * key with this secret (looked up on every request, so a revoked key is refused at once by every process), its
 * `last_used_at` written when older than a minute, and one request counted in its account's current rate-limit window
 * (one atomic upsert, so the limit holds across every process on the database; every key of the account shares
 * the window, so more keys never mean a higher limit). Null for an unknown, revoked or malformed key (nothing counted).
 * With a `rider`, the operation's own read runs in the same statement and its row comes back as `read` (a single
 * transactional send's account, senders and suppressions: one round trip fewer per call).
 *
 * The statement commits ASYNCHRONOUSLY (`synchronous_commit` off for its own implicit transaction, set by
 * `set_config(…, true)` inside it): every request of an account upserts the same counter row, and with a synchronous
 * commit each one held that row's lock until its WAL was flushed to disk — one fsync per request, in series, which
 * capped any key (and so every /api/v1 call) near 1,000 requests/s (ADR 0019). A crash of PostgreSQL may now lose
 * the last fraction of a second of counts and `last_used_at` touches — never money, never a revocation (read, not
 * written, here), never an idempotency answer; the count itself stays exact (still one atomic upsert under the row
 * lock) and every other transaction keeps its synchronous commit. A rider only reads.
 */
export async function authenticateAndHitRateLimit(
  db: Db,
  secret: string,
  limit: number,
  windowSeconds: number,
  now: Date = new Date(),
  rider?: KeyRider,
): Promise<{ key: ApiKeyContext; limit: RateLimitState; read: Record<string, unknown> } | null> {
  if (!isWellFormedApiKey(secret)) return null;
  const nowMs = now.getTime();
  const { startMs, endMs } = windowOf(nowMs, windowSeconds);
  const key = { keyHash: hashApiKey(secret), windowStart: new Date(startMs).toISOString() };
  const [row] = await queryPrebuilt<
    { id: string; account_id: string; scope: ApiKeyContext['scope']; count: number } & Record<string, unknown>,
    KeySlots
  >(
    db,
    rider ? (rider.rider.statement as unknown as PrebuiltStatement<KeySlots>) : keyStatement,
    rider ? { ...rider.values, ...key } : key,
    { named: true },
  );
  if (!row) return null;
  await pruneNowAndThen(db, nowMs);
  return {
    key: { keyId: row.id, accountId: row.account_id, scope: row.scope, mode: apiKeyModeOf(secret) },
    limit: stateOf(Number(row.count), limit, endMs, nowMs),
    read: row,
  };
}
