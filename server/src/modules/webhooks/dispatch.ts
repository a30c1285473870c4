import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { webhookDeliveries } from './webhooks.db';

// The outbox side of webhooks: engine batches and outbox events become deliveries (webhook_deliveries), which
// the delivery lanes (delivery-lanes.ts) claim when due. One statement per step, SKIP LOCKED: any number of
// workers. A new delivery is due at its event's time, so an endpoint's first attempts are claimed in event order.

/**
 * The dispatcher's first step, one statement: expands up to `limit` coalesced engine batches into one
 * `message.delivered` event per message still marked sent (timestamp = when the batch was recorded) and, in the
 * same statement, one delivery per subscribed enabled endpoint — the events are born dispatched, so the hot path
 * writes each event once.
 */
export async function expandEventBatches(db: Db, limit = 20): Promise<number> {
  const [row] = await queryRows<{ batches: number }>(
    db,
    sql`with b as (
          select id, account_id, type, message_ids, created_at from webhook_event_batches
           where dispatched_at is null order by id limit ${limit} for update skip locked),
        marked as (update webhook_event_batches w set dispatched_at = now() from b where w.id = b.id returning 1),
        expanded as (
          insert into webhook_events (id, account_id, type, payload, created_at, dispatched_at)
          select x.id, x.account_id, x.type,
                 jsonb_build_object('id', x.id, 'type', x.type, 'timestamp', x.at,
                                    'account', jsonb_build_object('id', x.account_id, 'uuid', x.account_uuid),
                                    'data', jsonb_build_object('messageId', x.message_id::text, 'campaignId', x.campaign_id,
                                                               'contactId', x.contact_id, 'email', x.email,
                                                               'sentAt', coalesce(to_char(x.sent_at at time zone 'utc',
                                                                   'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), x.at))
                                            || x.labels),
                 x.created_at, now()
            -- The id is drawn in this subquery's select list: a volatile expression there is evaluated once per
            -- row it returns (one per message), whatever the join order. Drawn in a LATERAL subquery that only
            -- referred to the batch, the planner was free to evaluate it once per batch — every message of the
            -- batch then got the same id, and the statement failed on the primary key.
            from (select 'evt_' || replace(gen_random_uuid()::text, '-', '') as id,
                         a.id as account_id, a.uuid as account_uuid, b.type, b.created_at,
                         to_char(b.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
                         m.id as message_id, m.campaign_id, m.contact_id, m.email, m.sent_at,
                         jsonb_build_object('tags', coalesce(to_jsonb(t.tags), '[]'::jsonb),
                                            'metadata', coalesce(t.metadata, '{}'::jsonb)) as labels
                    from b cross join lateral unnest(b.message_ids) as u(message_id)
                         -- One primary-key probe per message whatever the statistics say (a plain join let stale
                         -- ones choose a nested loop over a scan of every message).
                         cross join lateral (
                           select id, campaign_id, contact_id, email, sent_at from messages
                            where id = u.message_id and status = 'sent' limit 1) m
                         -- A transactional message's tags and metadata (MESSAGE_LABELS_SQL's values), one probe.
                         left join lateral (
                           select tags, metadata from transactional_messages where message_id = m.id) t on true
                         join accounts a on a.id = b.account_id) x
          returning id, account_id, type, created_at),
        created as (
          insert into webhook_deliveries (account_id, endpoint_id, event_id, event_type, next_attempt_at)
          select x.account_id, e.id, x.id, x.type, x.created_at
            from expanded x join webhook_endpoints e on e.account_id = x.account_id
           where e.enabled and x.type = any(e.event_types)
          returning 1)
        select (select count(*) from marked)::int as batches, (select count(*) from created)::int as deliveries`,
  );
  return row?.batches ?? 0;
}

/**
 * The dispatcher's step, one statement: takes up to `limit` undispatched outbox events (SKIP LOCKED: any number
 * of workers), creates one delivery per subscribed enabled endpoint (or the one endpoint of a test event) and
 * marks the events dispatched. Returns how many events it took.
 */
export async function dispatchEvents(db: Db, limit = 500): Promise<number> {
  const [row] = await queryRows<{ events: number }>(
    db,
    sql`with ev as (
          select id, account_id, type, endpoint_id, created_at from webhook_events
           where dispatched_at is null order by created_at limit ${limit} for update skip locked),
        marked as (update webhook_events w set dispatched_at = now() from ev where w.id = ev.id returning 1),
        created as (
          insert into webhook_deliveries (account_id, endpoint_id, event_id, event_type, next_attempt_at)
          select ev.account_id, e.id, ev.id, ev.type, ev.created_at
            from ev join webhook_endpoints e on e.account_id = ev.account_id
           where (ev.endpoint_id is null and e.enabled and ev.type = any(e.event_types)) or e.id = ev.endpoint_id
          returning 1)
        select (select count(*) from marked)::int as events, (select count(*) from created)::int as deliveries`,
  );
  return row?.events ?? 0;
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
