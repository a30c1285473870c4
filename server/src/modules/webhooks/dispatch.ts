import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';
import { type ClaimedDelivery, type DeliveryRow, type DueKey, deliveryOfRow } from './deliver';
import { webhookDeliveries } from './webhooks.db';

// The outbox side of webhooks: engine batches and outbox events become deliveries (webhook_deliveries), which
// the delivery lanes (delivery-lanes.ts) claim when due. One statement per step, SKIP LOCKED: any number of
// workers. A new delivery is due at its event's time, so an endpoint's first attempts are claimed in event order.
//
// Deliveries born claimed (ADR 0026, session 9): the worker whose dispatcher creates deliveries may take the first
// of each endpoint straight into its own lanes — inserted already holding its claim token and lease, returned with
// the payload and the endpoint's fields, as a claim would have returned them — instead of inserting them due and
// claiming them back with a second statement (a scan of the due index and an update of every row: one row version
// and four index entries per event). Per endpoint, only the oldest deliveries of the round, up to the room the
// lanes give (0 while the endpoint has deliveries waiting in the index: those are older and go first); the rest
// are born due, as before, and the lanes learn where they start.

/**
 * What the lanes of the dispatching worker take at birth, and where they get them. `rooms`: per endpoint, how
 * many of its new deliveries may be born claimed (an endpoint not listed: `defaultRoom`).
 */
export interface DeliveryBirths {
  plan(): { claimToken: string; leaseSeconds: number; rooms: Map<string, number>; defaultRoom: number } | null;
  /**
   * The deliveries born claimed, in event order, and per endpoint that had more than its room the due key of its
   * first delivery born due (what the lanes' next claim for it starts at).
   */
  adopt(born: ClaimedDelivery[], overflow: Map<string, DueKey>): void;
}

interface BornRow extends DeliveryRow {
  n: number;
  id: string | null;
  born: boolean;
}

/**
 * The deliveries of a dispatch round, from `candidates` (a CTE named `candidates`: per delivery to make, the event
 * — account_id, event_id, type, due_at (the event's time), seq (the event order within the round), payload — and
 * its endpoint — endpoint_id, enabled, url, secret_ciphertext, previous_secret_ciphertext,
 * previous_secret_expires_at): per endpoint, the first `room` in event order born claimed, the rest born due at
 * their event's time. The statement's result: one row per delivery born claimed and one per endpoint for its
 * first delivery born due, each with `n` (the statement's count, from `counted`); a single row of nulls but `n`
 * when there are none.
 *
 * Everything the result needs is drawn before the insert (the delivery's id and due key included), so the result
 * reads `ranked` alone: joined back to the insert's rows, the planner — which knows nothing of a CTE's size —
 * chose a nested loop of the round's deliveries over themselves (10,000 × 10,000 comparisons, 20 s, in the
 * webhooks benchmark).
 */
function deliveriesSql(plan: ReturnType<DeliveryBirths['plan']>): SQL {
  const rooms = plan?.rooms ?? new Map<string, number>();
  const ids = [...rooms.keys()];
  return sql`room as (
          select * from unnest(${pgTextArray(ids)}::uuid[], ${pgTextArray(ids.map((id) => String(rooms.get(id) ?? 0)))}::int[])
                   as r(endpoint_id, n)),
        -- Materialized: the insert and the result read the same rows, and the same drawn ids.
        ranked as materialized (
          select c.*, gen_random_uuid() as delivery_id,
                 -- The due order's tie-break among one batch's deliveries (they share its time): the round's event
                 -- order, one microsecond apart. clock_timestamp() per row ties within a tick (a millisecond on
                 -- PGlite), and a claim then took a batch's deliveries in any order among the tied.
                 statement_timestamp() + c.seq::float8 * interval '1 microsecond' as due_created,
                 row_number() over (partition by c.endpoint_id order by c.due_at, c.seq)
                   - coalesce(room.n, ${plan?.defaultRoom ?? 0}::int) as past
            from candidates c left join room on room.endpoint_id = c.endpoint_id),
        created as (
          insert into webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, next_attempt_at,
                                          claim_token, created_at)
          select delivery_id, account_id, endpoint_id, event_id, type,
                 case when past <= 0
                      then clock_timestamp() + make_interval(secs => ${plan?.leaseSeconds ?? 0}::int) else due_at end,
                 case when past <= 0 then ${plan?.claimToken ?? null}::uuid end,
                 due_created
            from ranked)
        select (select n from counted) as n, t.delivery_id as id, t.past <= 0 as born, t.endpoint_id, t.event_id,
               t.type as event_type, case when t.past <= 0 then t.payload::text end as body,
               t.due_at::text as due_at, t.due_created::text as due_created,
               t.account_id, t.enabled, t.url, t.secret_ciphertext, t.previous_secret_ciphertext,
               t.previous_secret_expires_at
          from (select 1) one left join ranked t on t.past <= 1
         order by t.due_at, t.seq`;
}

/**
 * The endpoints a round's events may go to (a CTE named `endpoints`, from the accounts of `events`, a CTE with an
 * `account_id`): a handful per account, so matching each event against them costs the same whatever plan joins them.
 */
function endpointsSql(events: 'b' | 'ev'): SQL {
  return sql`endpoints as materialized (
          select e.id, e.account_id, e.event_types, e.enabled, e.url, e.secret_ciphertext, e.previous_secret_ciphertext,
                 e.previous_secret_expires_at
            from webhook_endpoints e where e.account_id in (select account_id from ${sql.raw(events)}))`;
}

/** Hands the round's born deliveries to the lanes; returns the statement's count. */
function handOver(rows: BornRow[], births: DeliveryBirths | undefined, claimToken: string | undefined): number {
  const born: ClaimedDelivery[] = [];
  const overflow = new Map<string, DueKey>();
  for (const r of rows) {
    if (r.id === null) continue;
    if (!r.born) {
      overflow.set(r.endpoint_id, { at: r.due_at, created: r.due_created });
      continue;
    }
    born.push(deliveryOfRow(r, r.id, claimToken as string, 0));
  }
  if (births && (born.length > 0 || overflow.size > 0)) births.adopt(born, overflow);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The dispatcher's first step, one statement: expands up to `limit` coalesced engine batches into one
 * `message.delivered` event per message still marked sent (timestamp = when the batch was recorded) and, in the
 * same statement, one delivery per subscribed enabled endpoint — the events are born dispatched, so the hot path
 * writes each event once.
 */
export async function expandEventBatches(db: Db, limit = 20, births?: DeliveryBirths): Promise<number> {
  const plan = births?.plan() ?? null;
  const rows = await queryRows<BornRow>(
    db,
    sql`with b as (
          select id, account_id, type, message_ids, created_at from webhook_event_batches
           where dispatched_at is null order by id limit ${limit} for update skip locked),
        marked as (update webhook_event_batches w set dispatched_at = now() from b where w.id = b.id returning 1),
        -- The id is drawn in this CTE's select list: a volatile expression there is evaluated once per row it
        -- returns (one per message), whatever the join order. Drawn in a LATERAL subquery that only referred to
        -- the batch, the planner was free to evaluate it once per batch — every message of the batch then got the
        -- same id, and the statement failed on the primary key. Materialized: the events and their deliveries
        -- read the same rows (and ids).
        x as materialized (
          select 'evt_' || replace(gen_random_uuid()::text, '-', '') as id,
                 a.id as account_id, a.uuid as account_uuid, b.type, b.created_at,
                 to_char(b.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
                 m.id as message_id, m.campaign_id, m.contact_id, m.email, m.sent_at,
                 jsonb_build_object('tags', coalesce(to_jsonb(t.tags), '[]'::jsonb),
                                    'metadata', coalesce(t.metadata, '{}'::jsonb)) as labels,
                 row_number() over (order by b.id, u.ord) as seq
            from b cross join lateral unnest(b.message_ids) with ordinality as u(message_id, ord)
                 -- One primary-key probe per message whatever the statistics say (a plain join let stale
                 -- ones choose a nested loop over a scan of every message).
                 cross join lateral (
                   select id, campaign_id, contact_id, email, sent_at from messages
                    where id = u.message_id and status = 'sent' limit 1) m
                 -- A transactional message's tags and metadata (MESSAGE_LABELS_SQL's values), one probe.
                 left join lateral (
                   select tags, metadata from transactional_messages where message_id = m.id) t on true
                 join accounts a on a.id = b.account_id),
        -- The payload once, for the event row and for the deliveries born claimed with it.
        events as materialized (
          select x.id, x.account_id, x.type, x.created_at, x.seq,
                 jsonb_build_object('id', x.id, 'type', x.type, 'timestamp', x.at,
                                    'account', jsonb_build_object('id', x.account_id, 'uuid', x.account_uuid),
                                    'data', jsonb_build_object('messageId', x.message_id::text, 'campaignId', x.campaign_id,
                                                               'contactId', x.contact_id, 'email', x.email,
                                                               'sentAt', coalesce(to_char(x.sent_at at time zone 'utc',
                                                                   'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), x.at))
                                            || x.labels) as payload
            from x),
        expanded as (
          insert into webhook_events (id, account_id, type, payload, created_at, dispatched_at)
          select id, account_id, type, payload, created_at, now() from events),
        ${endpointsSql('b')},
        candidates as (
          select ev.account_id, ev.id as event_id, ev.type, ev.created_at as due_at, ev.seq, ev.payload,
                 e.id as endpoint_id, e.enabled, e.url, e.secret_ciphertext, e.previous_secret_ciphertext,
                 e.previous_secret_expires_at
            from events ev join endpoints e on e.account_id = ev.account_id
           where e.enabled and ev.type = any(e.event_types)),
        counted as (select count(*)::int as n from marked),
        ${deliveriesSql(plan)}`,
  );
  return handOver(rows, births, plan?.claimToken);
}

/**
 * The dispatcher's step, one statement: takes up to `limit` undispatched outbox events (SKIP LOCKED: any number
 * of workers), creates one delivery per subscribed enabled endpoint (or the one endpoint of a test event) and
 * marks the events dispatched. Returns how many events it took.
 */
export async function dispatchEvents(db: Db, limit = 500, births?: DeliveryBirths): Promise<number> {
  const plan = births?.plan() ?? null;
  const rows = await queryRows<BornRow>(
    db,
    sql`with ev as (
          select id, account_id, type, endpoint_id, created_at, payload,
                 row_number() over (order by created_at, id) as seq
            from (select * from webhook_events where dispatched_at is null order by created_at limit ${limit}
                     for update skip locked) w),
        marked as (update webhook_events w set dispatched_at = now() from ev where w.id = ev.id returning 1),
        ${endpointsSql('ev')},
        candidates as (
          select ev.account_id, ev.id as event_id, ev.type, ev.created_at as due_at, ev.seq, ev.payload,
                 e.id as endpoint_id, e.enabled, e.url, e.secret_ciphertext, e.previous_secret_ciphertext,
                 e.previous_secret_expires_at
            from ev join endpoints e on e.account_id = ev.account_id
           where (ev.endpoint_id is null and e.enabled and ev.type = any(e.event_types)) or e.id = ev.endpoint_id),
        counted as (select count(*)::int as n from marked),
        ${deliveriesSql(plan)}`,
  );
  return handOver(rows, births, plan?.claimToken);
}

/** "Reenviar": a finished delivery is due again at once, with a fresh retry budget (the same event id). */
export async function redeliver(db: Db, accountId: string, deliveryId: string): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({
      status: 'pending',
      runAttempts: 0,
      nextAttemptAt: sql`clock_timestamp()`,
      claimToken: null,
    })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.accountId, accountId),
        sql`${webhookDeliveries.status} <> 'pending'`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}
