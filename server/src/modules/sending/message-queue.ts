import type { SkipReason } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';

/**
 * The sending pipeline's queue API: the only code that writes `messages` and `message_batches`. A stream (a
 * campaign, or an account's transactional stream) enqueues, re-times, closes and claims its work through these
 * functions. Most of them return SQL (a statement or a CTE body) that the source composes into its own single
 * statement with its own tables — the snapshot, the carve, the commit of a transactional send each stay ONE
 * statement, so the queue adds no round trip per message or per batch (ADR 0019, ADR 0036).
 */

/**
 * A message token in SQL: 40 hex characters, all 122 random bits of one UUIDv4 plus 32 random bits of a second
 * (≥ 150 bits), lowercase so a mail system that lowercases the VERP local part keeps it valid.
 */
export const MESSAGE_TOKEN_SQL = sql`substr(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 1, 40)`;

/** The values of each queued message, as SQL over the caller's rows; `token` defaults to MESSAGE_TOKEN_SQL. */
export interface EnqueueColumns {
  contactId?: SQL;
  email: SQL;
  token?: SQL;
  /** 'queued' (the default) or 'skipped' for a message stored but never delivered (with response, skipReason). */
  status?: SQL;
  response?: SQL;
  skipReason?: SQL;
}

export interface EnqueueInput {
  /** The stream the messages belong to (`messages.campaign_id`). */
  streamId: string;
  accountId: string;
  columns: EnqueueColumns;
  /** The rest of the recipients' SELECT: `from … where … order by …` (ids follow this order, one ascending run). */
  from: SQL;
  /** A message already queued for the same contact of the stream is kept, not duplicated (the snapshot's dedup). */
  skipDuplicates?: boolean;
  /** What the insert returns (columns of `messages`), e.g. `id` or `id, token, status`. */
  returning: SQL;
}

/**
 * Enqueue: ONE `insert into messages … select …` for every recipient the caller's SELECT yields, to be run as a
 * statement or a CTE body (`with m as (${enqueueMessagesSql(…)}) …`). The rows are due at once; a campaign's are
 * carved into batches by its claim (carveBatchSql), others are batched in the same statement (queueBatchesCtes).
 */
export function enqueueMessagesSql(input: EnqueueInput): SQL {
  const { columns } = input;
  const names: SQL[] = [sql`campaign_id`, sql`account_id`];
  const values: SQL[] = [sql`${input.streamId}::uuid`, sql`${input.accountId}::uuid`];
  const add = (name: string, value: SQL | undefined) => {
    if (!value) return;
    names.push(sql.raw(name));
    values.push(value);
  };
  add('contact_id', columns.contactId);
  add('email', columns.email);
  add('token', columns.token ?? MESSAGE_TOKEN_SQL);
  add('status', columns.status);
  add('response', columns.response);
  add('skip_reason', columns.skipReason);
  return sql`insert into messages (${sql.join(names, sql`, `)})
          select ${sql.join(values, sql`, `)}
            ${input.from}
          ${input.skipDuplicates ? sql`on conflict do nothing` : sql``}
          returning ${input.returning}`;
}

export interface QueueBatchesInput {
  streamId: string;
  /** The relation of the ids just enqueued and queued (e.g. `select id from m where status = 'queued'`). */
  queued: SQL;
  /** At most this many consecutive ids per batch. */
  size: number;
  /**
   * When the stream's newest batch may take the new ids (it must also be queued, due, unlocked and stay under
   * `size` ids): e.g. that no other commit changed the account since this statement's snapshot.
   */
  extendIf: SQL;
  /**
   * When the new batches become due (a timestamptz; default now). Only a batch due at that same time is extended
   * (without it: one already due), so a scheduled send never joins a batch due earlier or later.
   */
  dueAt?: SQL;
}

/**
 * Two CTEs, `extended` and `batches`, that put freshly enqueued messages into batches in the enqueue's statement:
 * fewer, larger batches (ADR 0019, amendment 2) — the ids join the stream's NEWEST batch when it is still queued,
 * due, not locked by a claim (SKIP LOCKED: extended before its claim or not at all, never waiting) and its range
 * stays under `size` ids; else new queued batches of at most `size` consecutive ids, due now (or at `dueAt`). The
 * newest batch is the highest id range: ranges never overlap (a message is claimable by one batch only), so it is
 * the one with the highest first id — one probe of message_batches_stream_newest_idx however many batches the
 * stream ever had.
 */
export function queueBatchesCtes(input: QueueBatchesInput): SQL {
  const { streamId, queued, size, dueAt } = input;
  return sql`extended as (
          update message_batches b set last_message_id = (select max(id) from (${queued}) q)
           where b.id = (select o.id from message_batches o
                          where o.id = (select n.id from message_batches n where n.campaign_id = ${streamId}::uuid
                                         order by n.first_message_id desc limit 1)
                            and o.status = 'queued' and ${dueAt ? sql`o.due_at = ${dueAt}` : sql`o.due_at <= now()`}
                            for update skip locked)
             and (select max(id) from (${queued}) q) - b.first_message_id < ${size}
             and ${input.extendIf}
          returning b.id),
        batches as (
          insert into message_batches (campaign_id, first_message_id, last_message_id, due_at)
          select ${streamId}::uuid, min(q.id), max(q.id), ${dueAt ?? sql`now()`}
            from (select id, (row_number() over (order by id) - 1) / ${size} as chunk
                    from (${queued}) ids) q
           where not exists (select 1 from extended)
           group by q.chunk
          returning 1)`;
}

/**
 * The claim of a stream's oldest due queued batch (retries, expired leases) that no other worker holds: the body
 * of a `batch` CTE returning `id, first_message_id, last_message_id`. `onlyIf` is the source's condition (e.g.
 * its campaign is still sending).
 */
export function claimDueBatchSql(input: { streamId: string; workerId: string; onlyIf: SQL }): SQL {
  return sql`update message_batches b
               set status = 'sending', claimed_by = ${input.workerId}, claimed_at = now()
             where b.id = (select id from message_batches
                            where campaign_id = ${input.streamId} and status = 'queued' and due_at <= now()
                            order by due_at, id limit 1
                            for update skip locked)
               and ${input.onlyIf}
            returning b.id, b.first_message_id, b.last_message_id`;
}

/**
 * The claim of a new batch carved from the source's range (its cursor): the body of a `batch` CTE returning
 * `id, first_message_id, last_message_id`, held by `workerId`. `from` names the relations that yield the range
 * (`firstId`, `lastId`); no row there, no batch.
 */
export function carveBatchSql(input: {
  streamId: string;
  workerId: string;
  from: SQL;
  firstId: SQL;
  lastId: SQL;
}): SQL {
  return sql`insert into message_batches (campaign_id, first_message_id, last_message_id, status, claimed_by, claimed_at)
            select ${input.streamId}, ${input.firstId}, ${input.lastId}, 'sending', ${input.workerId}, now()
              from ${input.from}
            returning id, first_message_id, last_message_id`;
}

/**
 * The claim of up to `limit` due queued batches of any stream `streamFilter` accepts (over `b.campaign_id`), oldest
 * first, skipping those other workers hold: two CTEs, `picked` and `batch` (returning `id, campaign_id,
 * first_message_id, last_message_id`).
 */
export function claimDueBatchesCtes(input: { workerId: string; limit: number; streamFilter: SQL }): SQL {
  return sql`picked as (
            select b.id from message_batches b
             where b.status = 'queued' and b.due_at <= now()
               and ${input.streamFilter}
             order by b.due_at, b.id
             limit ${input.limit}
               for update of b skip locked),
          batch as (
            update message_batches b set status = 'sending', claimed_by = ${input.workerId}, claimed_at = now()
              from picked where b.id = picked.id
            returning b.id, b.campaign_id, b.first_message_id, b.last_message_id)`;
}

/**
 * Re-time: a stream's queued batches waiting for a later retry become due now, and so do their messages that
 * failed at the relay (no reply, 421 or a 5xx of the relay itself); one statement.
 */
export async function makeQueuedWorkDue(db: Db, streamId: string): Promise<void> {
  await db.execute(
    sql`with due as (
          update message_batches set due_at = now()
           where campaign_id = ${streamId} and status = 'queued' and due_at > now()
          returning first_message_id as first_id, last_message_id as last_id)
        update messages m set next_attempt_at = now()
          from due
         where m.id between due.first_id and due.last_id and m.campaign_id = ${streamId} and m.status = 'queued'
           and (m.smtp_code is null or m.smtp_code = 421 or m.smtp_code >= 500) and m.next_attempt_at > now()`,
  );
}

/**
 * Close: three CTEs, `closed` (the stream's queued batches, now done), `ranges` (those plus the caller's
 * `unbatched` ranges — a relation of `first_id, last_id` not carved into batches yet) and `skipped` (their queued
 * messages, now skipped with `reason` and `response`, returning `status, skip_reason`). Batches in flight are left
 * to their worker. The batch rows are locked as they are updated and a claim takes them with SKIP LOCKED, so a
 * batch is either closed here or delivered, never both.
 */
export function closeQueuedWorkCtes(input: {
  streamId: string;
  unbatched: SQL;
  reason: SkipReason;
  response: string;
}): SQL {
  return sql`closed as (
          update message_batches set status = 'done', claimed_by = null, claimed_at = null
           where campaign_id = ${input.streamId} and status = 'queued'
          returning first_message_id as first_id, last_message_id as last_id),
        ranges as (
          ${input.unbatched}
          union all
          select first_id, last_id from closed),
        skipped as (
          update messages m set status = 'skipped', response = ${input.response}, skip_reason = ${input.reason}
            from ranges r
           where m.id between r.first_id and r.last_id and m.campaign_id = ${input.streamId} and m.status = 'queued'
          returning m.status, m.skip_reason)`;
}

/**
 * Variants in turn (A/B test, ADR 0020): the first `count` messages of the stream, in id order, get variants 0, 1,
 * 2… (`variants` of them) — one statement. Returns the last id given a variant (null when none).
 */
export async function assignVariantsInTurn(
  db: Db,
  streamId: string,
  count: number,
  variants: number,
): Promise<number | null> {
  const [row] = await queryRows<{ boundary: number | string | null }>(
    db,
    sql`with ranked as (
          select id, row_number() over (order by id) - 1 as rn from messages where campaign_id = ${streamId}),
        assigned as (
          update messages m set variant = (r.rn % ${variants})::smallint
            from ranked r
           where m.id = r.id and m.campaign_id = ${streamId} and r.rn < ${count}
          returning m.id)
        select max(id) as boundary from assigned`,
  );
  return row?.boundary == null ? null : Number(row.boundary);
}

/**
 * The held rows of a stream (ids in (`afterId`, `lastId`], no variant yet) get `variant` (the A/B winner): one
 * statement; returns how many.
 */
export async function writeHeldVariant(
  db: Db,
  streamId: string,
  range: { afterId: number; lastId: number },
  variant: number,
): Promise<number> {
  const [released] = await queryRows<{ n: number | string }>(
    db,
    sql`with released as (
          update messages set variant = ${variant}
           where campaign_id = ${streamId} and id > ${range.afterId} and id <= ${range.lastId} and variant is null
          returning 1)
        select count(*)::int as n from released`,
  );
  return Number(released?.n ?? 0);
}

/**
 * Batches claimed by a worker that died (held past `leaseSeconds`) go back to the queue, due at once; their
 * still-queued messages are then delivered again, once. Returns how many.
 */
export async function requeueExpiredBatches(db: Db, leaseSeconds: number): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update message_batches set status = 'queued', claimed_by = null, claimed_at = null, due_at = now()
         where status = 'sending' and claimed_at < now() - make_interval(secs => ${leaseSeconds})
        returning id`,
  );
  return rows.length;
}

/**
 * Cancel scheduled work: two CTEs, `held` (the stream's batches holding the caller's `ids` that are still queued and
 * not yet due, locked) and `cancelled` (those ids' queued messages in them, now skipped with `reason` and
 * `response`, returning `id`). A batch a lane already claimed, or one already due, is not held: its messages go.
 * A claim takes batches with SKIP LOCKED, so a message is either cancelled here or delivered, never both.
 */
export function cancelScheduledCtes(input: {
  streamId: string;
  /** A relation of message ids (`select id from …`). */
  ids: SQL;
  reason: SkipReason;
  response: string;
}): SQL {
  return sql`held as (
          select b.first_message_id, b.last_message_id from message_batches b
           where b.campaign_id = ${input.streamId}::uuid and b.status = 'queued' and b.due_at > now()
             and exists (select 1 from (${input.ids}) x
                          where x.id between b.first_message_id and b.last_message_id)
             for update),
        cancelled as (
          update messages m set status = 'skipped', response = ${input.response}, skip_reason = ${input.reason}
            from held h
           where m.id between h.first_message_id and h.last_message_id and m.id in (${input.ids})
             and m.campaign_id = ${input.streamId}::uuid and m.status = 'queued'
          returning m.id)`;
}
