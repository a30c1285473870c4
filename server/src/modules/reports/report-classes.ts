import { type SQL, sql } from 'drizzle-orm';

/**
 * The classes of the campaign report's rollup (`campaign_report_counts.class`, `message_event_firsts.class`), as
 * the SQL function `campaign_report_classes` of the rollup's migration names them: one event has one class, and a
 * human click on a tracked link a second one, `link:<id>`.
 */
export const REPORT_CLASS = {
  humanOpen: 'open',
  machineOpen: 'open:machine',
  humanClick: 'click',
  machineClick: 'click:machine',
  unsubscribe: 'unsubscribe',
  hardBounce: 'bounce:hard',
  softBounce: 'bounce:soft',
  policyBounce: 'bounce:policy',
  complaint: 'complaint',
} as const;

/** Prefix of the per-link classes (`link:<campaign_links.id>`: human clicks on that link). */
export const LINK_CLASS_PREFIX = 'link:';

/**
 * Prefix of an A/B test share's classes, `variant:<n>:open` and `variant:<n>:click`: the new first human opens and
 * clicks of the test share's messages (ids up to `campaign_sends.ab_test_last_message_id`) by variant — uniques
 * only (their events stay 0).
 */
export const VARIANT_CLASS_PREFIX = 'variant:';

export function variantClass(variant: number, humanClass: string): string {
  return `${VARIANT_CLASS_PREFIX}${variant}:${humanClass}`;
}

/**
 * The class of delivered messages, the one class no event writes: the sending pipeline's outcome statement adds a
 * batch's deliveries to its campaign's hour (deliveredRollupCte), so the dashboard's "entregues" and rates read
 * hours × classes rows instead of every message and event of the account. `events` and `uniques` are both the
 * messages delivered that hour (a message is delivered once).
 */
export const DELIVERED_CLASS = 'delivered';

/**
 * The rollup's side of recording a batch's outcomes, as a CTE composed into the pipeline's one outcome statement
 * (sending/batch-outcomes.ts, which provides `counts.sent`): the batch's deliveries added to the campaign's row of
 * the current UTC hour — the hour of the messages' `sent_at`, which is the same statement's now(). One row per
 * campaign and hour: no hotter than the campaign's counters row the same statement updates (ADR 0040).
 */
export function deliveredRollupCte(campaignId: string): SQL {
  return sql`delivered_rollup as (
            insert into campaign_report_counts as r (campaign_id, hour, class, events, uniques)
            select ${campaignId}, date_trunc('hour', now(), 'UTC'), ${DELIVERED_CLASS}, counts.sent, counts.sent
              from counts where counts.sent > 0
            on conflict (campaign_id, hour, class)
              do update set events = r.events + excluded.events, uniques = r.uniques + excluded.uniques
            returning 1)`;
}

/** Prefix every bounce class shares (`bounce:<kind>`, `bounce:unknown` for a bounce without a kind). */
export const BOUNCE_CLASS_PREFIX = 'bounce:';

export type ReportClass = (typeof REPORT_CLASS)[keyof typeof REPORT_CLASS];

/**
 * How many messages of a campaign had an event of the class (a unique count of the report: the rollup's firsts of
 * that class, summed over its hours), as a scalar subquery other modules fold into their own statement — campaign
 * counters, the bounce protection — instead of a count(distinct) over every event of the campaign.
 * `campaignId` is a value or a column of the caller's statement.
 */
export function campaignUniqueMessagesSql(campaignId: SQL, reportClass: ReportClass): SQL {
  return sql`(select coalesce(sum(r.uniques), 0)::int from campaign_report_counts r
               where r.campaign_id = ${campaignId} and r.class = ${reportClass})`;
}
