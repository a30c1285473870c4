import { apiKeyModeOf } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import { coalesce } from '../../db/coalesce';
import {
  type Db,
  type PrebuiltStatement,
  prebuildStatement,
  queryPrebuilt,
  queryRows,
  type SlotKind,
  type SlotValues,
} from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';
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

/** A rider's values as its read writes them: the column of the request's row (keyRoundSql) holding each slot's value. */
export type RiderValues<S extends Record<string, SlotKind>> = { [K in keyof S]: SQL };

/** A rider's read over the key's account (`k.account_id`) and its values. */
type RiderRead = (accountId: SQL, values: Record<string, SQL>) => SQL;

/** A round's arrays: each request's key hash and window, and each of its rider's values (pgTextArray each). */
type RoundSlots = Record<string, 'text'>;
const ROUND_KEY_SLOTS = { keyHashes: 'text', windowStarts: 'text' } as const;

/** The column of a round's request row that holds a rider slot's value. */
const riderColumn = (slot: string) => `"rider_${slot}"`;

/**
 * The key statement (see authenticateAndHitRateLimit) for a round of requests (keyRounds), one or many: for each
 * request its key looked up, its last use written when stale, one request counted in its account's window, and
 * with a rider its read over its own values — as ONE statement, each request a row of `unnest(...) with ordinality`
 * (`i`, from 1). The rider's columns follow the key's (they must not be named i, id, account_id, scope, count or
 * touched); no key, no row.
 * Each request's `count` is its place in its window: the window's count after the round, less the round's requests
 * of that window after it (the order of arrival), exactly what it would have been alone in that order. The windows
 * are upserted in (account, window) order and the stale keys touched with SKIP LOCKED, so two rounds never wait
 * for each other's rows in opposite orders; a touch skipped is done by a later request.
 */
function keyRoundSql(v: Record<string, string>, riderSlots: readonly string[], read?: RiderRead): SQL {
  const arrays = [
    sql`${v.keyHashes}::text[]`,
    sql`${v.windowStarts}::text[]`,
    ...riderSlots.map((s) => sql`${v[s]}::text[]`),
  ];
  const columns = ['key_hash', 'window_start', ...riderSlots.map(riderColumn), 'i'].join(', ');
  const riderValues = Object.fromEntries(riderSlots.map((s) => [s, sql.raw(`k.${riderColumn(s)}`)]));
  return sql`with r as (
          select * from unnest(${sql.join(arrays, sql`, `)}) with ordinality as r(${sql.raw(columns)})),
        k as (
          select r.*, a.id, a.account_id, a.scope,
                 (a.last_used_at is null or a.last_used_at < now() - interval '1 minute') as stale,
                 set_config('synchronous_commit', 'off', true) as async_commit
            from r join api_keys a on a.key_hash = r.key_hash and a.revoked_at is null),
        touched as (
          update api_keys set last_used_at = now()
           where id in (select t.id from api_keys t where t.id in (select id from k where stale) for update skip locked)
          returning id),
        hit as (
          insert into api_rate_limits (account_id, window_start, count)
          select account_id, window_start::timestamptz, count(*) from k
           group by account_id, window_start order by account_id, window_start
          on conflict (account_id, window_start) do update set count = api_rate_limits.count + excluded.count
          returning account_id, window_start, count)
        select k.i, k.id, k.account_id, k.scope,
               h.count - count(*) over w + row_number() over (w order by k.i) as count,
               (select count(*) from touched) as touched${read ? sql`, rider.*` : sql``}
          from k join hit h on h.account_id = k.account_id and h.window_start = k.window_start::timestamptz
               ${read ? sql`left join lateral (${read(sql`k.account_id`, riderValues)}) as rider on true` : sql``}
        window w as (partition by k.account_id, k.window_start)`;
}

const keyStatement = prebuildStatement('public_api_key_round', ROUND_KEY_SLOTS, (v) => keyRoundSql(v, []));

/**
 * An operation's read folded into the key statement (one round trip for both, ADR 0019): its prepared statement
 * (keyRoundSql with the read), built once per process from the read's SQL over the key's account and its own slots.
 */
export interface KeyRiderStatement<S extends Record<string, SlotKind>> {
  statement: PrebuiltStatement<RoundSlots>;
  /** The read's own slots, as declared; in the statement each is an array of the round's values. */
  slots: S;
}

/**
 * Builds the key statement with `read` riding on it; `name` is its prepared statement's. The read's slots are text:
 * each is a column of the request's row, typed as the read casts its parameter.
 */
export function keyRiderStatement<S extends Record<string, 'text' | 'text or null'>>(
  name: string,
  slots: S,
  read: (accountId: SQL, values: RiderValues<S>) => SQL,
): KeyRiderStatement<S> {
  const names = Object.keys(slots) as (keyof S & string)[];
  for (const slot of names) {
    if (slot in ROUND_KEY_SLOTS || !/^[A-Za-z]\w*$/.test(slot)) {
      throw new Error(`key rider ${name}: slot ${slot} is the key statement's own, or not a plain name`);
    }
  }
  const roundSlots: RoundSlots = { ...ROUND_KEY_SLOTS, ...Object.fromEntries(names.map((s) => [s, 'text'])) };
  return {
    statement: prebuildStatement(name, roundSlots, (v) => keyRoundSql(v, names, read as unknown as RiderRead)),
    slots,
  };
}

/** A rider statement with this request's values for its own slots. */
export interface KeyRider<S extends Record<string, SlotKind> = Record<string, SlotKind>> {
  rider: KeyRiderStatement<S>;
  values: SlotValues<S>;
}

type KeyRow = { id: string; account_id: string; scope: ApiKeyContext['scope']; count: number | string } & Record<
  string,
  unknown
>;

interface KeyRequest {
  keyHash: string;
  windowStart: string;
  rider?: KeyRider;
}

/** At most this many requests share one key statement. */
const KEY_ROUND_MAX = 100;

/** The key statement for these requests (all with the same rider, or none): each request's row, or null. */
async function keyRound(db: Db, requests: KeyRequest[]): Promise<(KeyRow | null)[]> {
  const rider = requests[0]?.rider?.rider;
  const values: Record<string, string> = {
    keyHashes: pgTextArray(requests.map((r) => r.keyHash)),
    windowStarts: pgTextArray(requests.map((r) => r.windowStart)),
  };
  for (const slot of Object.keys(rider?.slots ?? {})) {
    values[slot] = pgTextArray(requests.map((r) => (r.rider?.values[slot] ?? null) as string | null));
  }
  const rows = await queryPrebuilt<KeyRow & { i: string }, RoundSlots>(db, rider?.statement ?? keyStatement, values, {
    named: true,
  });
  const byRequest: (KeyRow | null)[] = requests.map(() => null);
  for (const row of rows) byRequest[Number(row.i) - 1] = row;
  return byRequest;
}

/**
 * The key statements of the requests that arrive while one is in flight (per statement: with or without a rider)
 * run as the next round, in one statement (coalesce): under load a key statement per round of arrivals instead of
 * one per request — each request still looked up and counted by PostgreSQL after it arrived, so revocation and the
 * limit hold as they do alone. A lone request runs at once, as a round of one: one SQL text for the rule (a round of
 * one measured no slower than a statement written for one request).
 */
const keyRounds = coalesce<KeyRequest, KeyRow | null>({
  max: KEY_ROUND_MAX,
  alone: async (db, _statement, request) => (await keyRound(db, [request]))[0] ?? null,
  together: (db, _statement, requests) => keyRound(db, requests),
});

/**
 * The request path of every `/api/v1` call in ONE statement (one round trip instead of two or three): the active
 * key with this secret (looked up on every request, so a revoked key is refused at once by every process), its
 * `last_used_at` written when older than a minute, and one request counted in its account's current rate-limit window
 * (one atomic upsert, so the limit holds across every process on the database; every key of the account shares
 * the window, so more keys never mean a higher limit). Null for an unknown, revoked or malformed key (nothing counted).
 * With a `rider`, the operation's own read runs in the same statement and its row comes back as `read` (a single
 * transactional send's account, senders and suppressions: one round trip fewer per call). Under load, the
 * requests that arrive while a key statement is in flight share the next one (keyRounds).
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
  const request = { keyHash: hashApiKey(secret), windowStart: new Date(startMs).toISOString(), rider };
  const row = await keyRounds(db, (rider?.rider.statement ?? keyStatement).name, request);
  if (!row) return null;
  await pruneNowAndThen(db, nowMs);
  return {
    key: { keyId: row.id, accountId: row.account_id, scope: row.scope, mode: apiKeyModeOf(secret) },
    limit: stateOf(Number(row.count), limit, endMs, nowMs),
    read: row,
  };
}
