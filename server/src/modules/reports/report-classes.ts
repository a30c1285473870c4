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

/** Prefix every bounce class shares (`bounce:<kind>`, `bounce:unknown` for a bounce without a kind). */
export const BOUNCE_CLASS_PREFIX = 'bounce:';
