import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';

/** Rows removed by one pass of the history sweep. */
export interface SweepResult {
  deliveries: number;
  events: number;
  eventBatches: number;
}

/** At most this many rows go per statement, so a long backlog never holds one long lock. */
const CHUNK = 5_000;

async function deleteInChunks(db: Db, statement: () => ReturnType<typeof sql>): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await queryRows<{ n: number }>(db, statement());
    const n = Number(rows[0]?.n ?? 0);
    total += n;
    if (n < CHUNK) return total;
  }
}

/**
 * Forgets webhook history older than the retention: settled deliveries (their attempts go with them by the
 * cascade), then dispatched events no delivery refers to any more, then expanded engine batches. A pending
 * delivery and its event are kept whatever their age — the delivery log never loses something still in flight.
 */
export async function sweepWebhookHistory(db: Db, options: { now: Date; retentionDays: number }): Promise<SweepResult> {
  const cutoff = new Date(options.now.getTime() - options.retentionDays * 86_400_000).toISOString();
  const deliveries = await deleteInChunks(
    db,
    () => sql`with gone as (
      delete from webhook_deliveries where id in (
        select id from webhook_deliveries
        where created_at < ${cutoff}::timestamptz and status <> 'pending'
        limit ${CHUNK})
      returning 1)
    select count(*)::int as n from gone`,
  );
  const events = await deleteInChunks(
    db,
    () => sql`with gone as (
      delete from webhook_events where id in (
        select e.id from webhook_events e
        where e.created_at < ${cutoff}::timestamptz and e.dispatched_at is not null
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
        limit ${CHUNK})
      returning 1)
    select count(*)::int as n from gone`,
  );
  const eventBatches = await deleteInChunks(
    db,
    () => sql`with gone as (
      delete from webhook_event_batches where id in (
        select id from webhook_event_batches
        where dispatched_at is not null and dispatched_at < ${cutoff}::timestamptz
        limit ${CHUNK})
      returning 1)
    select count(*)::int as n from gone`,
  );
  return { deliveries, events, eventBatches };
}
