import { bigint, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { campaigns } from '../campaigns/campaigns.db';

/*
 * The campaign report's rollup of message_events (docs/benchmarks.md "Campaign report rollup"). Both tables are
 * written by the database on the reports module's behalf: the statement-level AFTER INSERT trigger
 * `message_events_report_rollup` (function `campaign_report_rollup_record`, its migration) folds every statement
 * that inserts events — the tracking recorder's batches, bounces, complaints, unsubscribes — so no writer of events
 * has to know the report exists, and a batch stays one statement. The report reads hours × classes rows instead of
 * every event of the campaign. One class comes from no event: `delivered` (report-classes.ts DELIVERED_CLASS), added
 * by the sending pipeline's outcome statement through reports' `deliveredRollupCte` (ADR 0040).
 *
 * A class is what the report counts (`report-classes.ts`; the SQL function `campaign_report_classes` maps an
 * event to its classes): `open` and `click` (human), `open:machine` and `click:machine`, `link:<link id>` (a
 * human click on that link), `unsubscribe`, `bounce:hard|soft|policy|unknown`, `complaint`; and from the firsts of
 * an A/B test share, `variant:<n>:open|click` (report-classes.ts).
 *
 * message_events is append-only; the only way events leave is with their campaign or account (foreign-key
 * cascades), which take these rows with them. Erasing a contact deletes the contact, not the events of the
 * messages it was sent (they are the campaign's history, keyed by message), so the rollup and the events agree.
 */

/**
 * One row per message and class the message has had an event of (machine classes excluded): whether a new event
 * is the message's first of its class is one primary-key probe. `campaign_id` leads the key — a message belongs to
 * one campaign, so (campaign, class, message) is unique exactly when (message, class) is — so a campaign's firsts of
 * a class are one index range (the A/B report's test share) and they go with the campaign.
 */
export const messageEventFirsts = pgTable(
  'message_event_firsts',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    class: text('class').notNull(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.class, t.messageId] })],
);

/**
 * Per campaign, UTC hour and class: how many events (`events`) and how many messages had their first event of the
 * class in that hour (`uniques`; zero for machine classes). Summing a class over the hours gives the report's
 * totals and unique counts; the hours give its series.
 */
export const campaignReportCounts = pgTable(
  'campaign_report_counts',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    class: text('class').notNull(),
    events: bigint('events', { mode: 'number' }).notNull(),
    uniques: bigint('uniques', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.hour, t.class] })],
);
