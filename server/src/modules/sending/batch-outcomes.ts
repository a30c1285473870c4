import { SKIP_REASON_LABELS, type SkipReason } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';
import { deliveredRollupCte } from '../reports/report-classes';
import { messageDeliveredOutboxCte } from '../webhooks/emit-event';
import type { SenderSettings } from './sender-settings';
import type { DeliveryOutcome } from './transport';

/** What the engine writes on a message after an attempt (campaign and transactional lanes alike). */
export interface Outcome {
  id: number;
  status: 'queued' | 'sent' | 'failed' | 'skipped';
  nextAttemptAt: Date | null;
  code: number | null;
  enhancedCode: string | null;
  response: string;
  policy: boolean;
  /** Why a skipped message was not delivered (shared SkipReason); null otherwise. */
  skipReason?: SkipReason | null;
}

/** A message not delivered because its recipient may no longer receive it, or its send was cancelled. */
export function skippedOutcome(id: number, reason: SkipReason): Outcome {
  return {
    id,
    status: 'skipped',
    nextAttemptAt: null,
    code: null,
    enhancedCode: null,
    response: `não enviado: ${SKIP_REASON_LABELS[reason].toLowerCase()}`,
    policy: false,
    skipReason: reason,
  };
}

/**
 * What a delivery outcome means for a message (standards.md "Bounces": retry 4xx with back-off, never 5xx); `now`
 * places the next attempt, and fails it when that falls past the retry window.
 */
export function deliveryOutcome(
  settings: Pick<SenderSettings, 'retryBaseSeconds' | 'retryMaxSeconds' | 'retryWindowSeconds'>,
  message: { id: number; attempts: number; created_ms: number },
  outcome: DeliveryOutcome,
  now: Date = new Date(),
): Outcome {
  const reply = { code: outcome.code, enhancedCode: outcome.enhancedCode, response: outcome.response };
  if (outcome.kind === 'sent') return { id: message.id, status: 'sent', nextAttemptAt: null, policy: false, ...reply };
  if (outcome.kind === 'permanent') {
    return { id: message.id, status: 'failed', nextAttemptAt: null, policy: outcome.policy, ...reply };
  }
  const { retryBaseSeconds, retryMaxSeconds, retryWindowSeconds } = settings;
  // `attempts` counts the attempts before this one: the first retry waits retryBaseSeconds.
  const delay = Math.min(retryBaseSeconds * 2 ** message.attempts, retryMaxSeconds) * 1000;
  const next = new Date(now.getTime() + delay);
  const giveUpAt = message.created_ms + retryWindowSeconds * 1000;
  if (next.getTime() > giveUpAt)
    return { id: message.id, status: 'failed', nextAttemptAt: null, policy: false, ...reply };
  return { id: message.id, status: 'queued', nextAttemptAt: next, policy: false, ...reply };
}

/** What the source adds to the outcome statement, and how the statement is run. */
export interface RecordOptions {
  /**
   * The claim source's own CTEs, composed into the statement (e.g. its counters: campaigns/campaign-counters.ts).
   * They may read `written` (the rows just written: status, next_attempt_at, smtp_code, policy, skip_reason) and
   * `counts` (sent, failed, skipped, rejected, policy_rejected, retry_at).
   */
  sourceCtes?: SQL;
}

/**
 * Writes a batch's outcomes and releases the batch in one statement (atomic by itself: no BEGIN/COMMIT round
 * trips): the message rows (heap-only updates), the `message.delivered` outbox rows, the batch (done, or queued
 * until its earliest pending retry), the deliveries in the reports' rollup and the source's own CTEs
 * (`recorded.sourceCtes`). Nothing is written when `workerId` no longer holds the batch (its lease expired and
 * another worker took it over): then false. `db` may be a transaction (the transactional lanes refund failed
 * messages in the same one).
 */
export async function recordBatchOutcomes(
  db: Db,
  workerId: string,
  streamId: string,
  batch: { id: number; firstMessageId: number; lastMessageId: number },
  outcomes: Outcome[],
  recorded: RecordOptions = {},
): Promise<boolean> {
  // One array parameter per column, expanded with unnest: a short statement whatever the batch size (and
  // array literals parse several times faster than the same rows as JSON).
  const column = (pick: (o: Outcome) => string | null) => pgTextArray(outcomes.map(pick));
  // Planned at each call, never a named statement's kept plan: it reads the engine's queue (message_batches) and
  // messages, which grow from empty by orders of magnitude within a run (ADR 0026, session 21), and PostgreSQL
  // planned the named form at every call anyway (session 20: 130 calls, 130 plans).
  const rows = await queryRows<{ released: number | string }>(
    db,
    sql`with v as (
            select * from unnest(${column((o) => String(o.id))}::bigint[], ${column((o) => o.status)}::text[],
                                 ${column((o) => o.nextAttemptAt?.toISOString() ?? null)}::timestamptz[],
                                 ${column((o) => (o.code === null ? null : String(o.code)))}::int[],
                                 ${column((o) => o.enhancedCode)}::text[],
                                 ${column((o) => o.response.slice(0, 1000))}::text[],
                                 ${column((o) => String(o.policy))}::boolean[],
                                 ${column((o) => o.skipReason ?? null)}::text[])
                     as v(id, status, next_at, code, enhanced, response, policy, skip_reason)),
          held as (
            select b.id from message_batches b
             where b.id = ${batch.id} and b.status = 'sending' and b.claimed_by = ${workerId}
               for update),
          -- Outbound webhooks (ADR 0015): message.delivered into the outbox, atomic with the outcome.
          ${messageDeliveredOutboxCte(streamId)},
          written as (
            update messages m
               set status = v.status, attempts = m.attempts + 1,
                   next_attempt_at = coalesce(v.next_at, m.next_attempt_at),
                   smtp_code = v.code, enhanced_code = v.enhanced, response = v.response, policy = v.policy,
                   skip_reason = v.skip_reason,
                   sent_at = case when v.status = 'sent' then now() else m.sent_at end,
                   claimed_by = ${workerId} -- which worker delivered it
              from v, held
             where m.id = v.id and m.status = 'queued'
            returning m.status, m.next_attempt_at, m.smtp_code, m.policy, m.skip_reason),
          counts as (
            select count(*) filter (where status = 'sent')::int as sent,
                   count(*) filter (where status = 'failed')::int as failed,
                   count(*) filter (where status = 'skipped')::int as skipped,
                   count(*) filter (where status = 'failed' and smtp_code >= 500 and not policy)::int as rejected,
                   count(*) filter (where status = 'failed' and policy)::int as policy_rejected,
                   min(next_attempt_at) filter (where status = 'queued') as retry_at
              from written),
          -- The reports' rollup counts deliveries per campaign and hour (the dashboard reads it).
          ${deliveredRollupCte(streamId)},
          -- Messages of the batch that were not due at the claim (a later retry) keep it queued too. NOT IN (v's ids
          -- are never null) is one hashed set of the batch whatever the estimates; NOT EXISTS became an anti join the
          -- planner made a nested loop of the batch over itself (500 × 250 rows, 40 ms of a 59 ms statement).
          later as (
            select min(m.next_attempt_at) as retry_at
              from messages m, held
             where m.campaign_id = ${streamId} and m.id between ${batch.firstMessageId} and ${batch.lastMessageId}
               and m.status = 'queued' and m.id not in (select id from v)),
          released as (
            update message_batches b
               set status = case when coalesce(counts.retry_at, later.retry_at) is null then 'done' else 'queued' end,
                   due_at = coalesce(least(counts.retry_at, later.retry_at), b.due_at),
                   claimed_by = null, claimed_at = null,
                   sent_count = b.sent_count + counts.sent, recorded_at = now()
              from held, counts, later
             where b.id = held.id
            returning 1),
          ${recorded.sourceCtes ?? sql`source as (select 1)`}
        select (select count(*) from released) as released`,
  );
  return Number(rows[0]?.released ?? 0) > 0;
}
