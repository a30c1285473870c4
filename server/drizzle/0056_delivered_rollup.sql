-- Deliveries in the campaign report's rollup: per campaign and UTC hour, the messages delivered (class
-- 'delivered', events = uniques = messages), so the dashboard's "entregues no mês", total and rates read the
-- account's hours × classes rows instead of every message and event (two sequential scans of the two largest
-- tables, of every account, on each dashboard load). From now on the sending pipeline's outcome statement adds
-- each batch's deliveries (reports/report-classes.ts deliveredRollupCte); this folds the messages delivered
-- before it: one pass over messages.
INSERT INTO campaign_report_counts (campaign_id, hour, class, events, uniques)
SELECT campaign_id, date_trunc('hour', sent_at, 'UTC'), 'delivered', count(*), count(*)
  FROM messages
 WHERE status = 'sent' AND sent_at IS NOT NULL
 GROUP BY campaign_id, date_trunc('hour', sent_at, 'UTC');
