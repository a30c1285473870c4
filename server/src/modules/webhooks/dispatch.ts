import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { MESSAGE_LABELS_SQL } from './emit-event';
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
          select ev.id, a.id, b.type,
                 jsonb_build_object('id', ev.id, 'type', b.type, 'timestamp', ev.at,
                                    'account', jsonb_build_object('id', a.id, 'uuid', a.uuid),
                                    'data', jsonb_build_object('messageId', m.id::text, 'campaignId', m.campaign_id,
                                                               'contactId', m.contact_id, 'email', m.email,
                                                               'sentAt', coalesce(to_char(m.sent_at at time zone 'utc',
                                                                   'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ev.at))
                                            || ${MESSAGE_LABELS_SQL}),
                 b.created_at, now()
            from b cross join lateral unnest(b.message_ids) as u(message_id)
                 join messages m on m.id = u.message_id and m.status = 'sent'
                 join accounts a on a.id = b.account_id
                 cross join lateral (
                   select 'evt_' || replace(gen_random_uuid()::text, '-', '') as id,
                          to_char(b.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at) ev
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
    .set({ status: 'pending', runAttempts: 0, nextAttemptAt: sql`clock_timestamp()`, claimToken: null })
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
