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
