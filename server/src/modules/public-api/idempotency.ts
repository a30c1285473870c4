import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';

/** How long a stored answer is replayed. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A claim still pending this long was abandoned (its process died) and may be taken over. */
const ABANDONED_AFTER_SECONDS = 120;
const POLL_MS = 50;

export type IdempotencyClaim =
  | { kind: 'run'; id: string }
  | { kind: 'replay'; status: number; body: string; contentType: string | null };

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same body. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** The fingerprint that decides "same request": method, path with query, and the canonical JSON body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body)}`, 'utf8')
    .digest('hex');
}

interface ClaimRow {
  id: string;
  request_hash: string;
  state: 'pending' | 'done';
  response_status: number | null;
  response_body: string | null;
  response_content_type: string | null;
  expired: boolean;
}

/**
 * Claims `key` for this request, or answers what the first request with it answered. The claim is one row,
 * unique per account and key, inserted by whichever process gets there first (the database settles races):
 * - no row (or an expired one) → this request runs (`run`);
 * - a finished row with the same fingerprint → `replay` its answer; with another fingerprint → 422;
 * - a pending row → wait for it to finish (then replay), take it over if it was abandoned, or 409 after a while.
 */
export async function claimIdempotencyKey(
  db: Db,
  accountId: string,
  key: string,
  requestHash: string,
  /** How long a repeat waits for the first request, still running, to finish before answering 409. */
  waitForFirstMs = 15_000,
): Promise<IdempotencyClaim> {
  const deadline = Date.now() + waitForFirstMs;
  for (;;) {
    const [inserted] = await queryRows<{ id: string }>(
      db,
      sql`insert into api_idempotency_keys (account_id, idempotency_key, request_hash)
          values (${accountId}, ${key}, ${requestHash})
          on conflict (account_id, idempotency_key) do nothing
          returning id`,
    );
    if (inserted) {
      if (Math.random() < 0.01) {
        await queryRows(
          db,
          sql`delete from api_idempotency_keys
              where created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
        );
      }
      return { kind: 'run', id: inserted.id };
    }
    const [row] = await queryRows<ClaimRow>(
      db,
      sql`select id, request_hash, state, response_status, response_body, response_content_type,
                 created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS}) as expired
          from api_idempotency_keys where account_id = ${accountId} and idempotency_key = ${key}`,
    );
    if (!row) continue; // released by a failed first request in between: claim it again
    if (row.expired) {
      await queryRows(db, sql`delete from api_idempotency_keys where id = ${row.id}`);
      continue;
    }
    if (row.request_hash !== requestHash) throw new AppError('idempotency_key_reused');
    if (row.state === 'done') {
      return {
        kind: 'replay',
        status: Number(row.response_status),
        body: row.response_body ?? '',
        contentType: row.response_content_type,
      };
    }
    const [taken] = await queryRows<{ id: string }>(
      db,
      sql`update api_idempotency_keys set claimed_at = now()
          where id = ${row.id} and state = 'pending'
            and claimed_at < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS})
          returning id`,
    );
    if (taken) return { kind: 'run', id: taken.id };
    if (Date.now() >= deadline) throw new AppError('idempotency_key_in_progress');
    await sleep(POLL_MS);
  }
}

/** Stores the answer of the request that holds the claim, for replays. */
export async function completeIdempotencyKey(
  db: Db,
  id: string,
  answer: { status: number; body: string; contentType: string | null },
): Promise<void> {
  await queryRows(
    db,
    sql`update api_idempotency_keys
        set state = 'done', response_status = ${answer.status}, response_body = ${answer.body},
            response_content_type = ${answer.contentType}
        where id = ${id}`,
  );
}

/**
 * Whether an answer is stored for replay: only outcomes the same request always gets — a success, or a 400 about
 * the request itself (validation, unknown fields). Anything that depends on the account's state and may change
 * without the request changing (402 short balance, 403 sender not verified or account suspended, 404, 409, 429)
 * and every 5xx releases the claim instead, so a retry after a top-up or a verification runs again.
 */
export function isReplayableStatus(status: number): boolean {
  return (status >= 200 && status < 300) || status === 400;
}

/** Drops the claim of a request whose answer is not replayed (see isReplayableStatus), so a retry runs again. */
export async function releaseIdempotencyKey(db: Db, id: string): Promise<void> {
  await queryRows(db, sql`delete from api_idempotency_keys where id = ${id} and state = 'pending'`);
}
