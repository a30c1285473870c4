CREATE TABLE "campaign_report_counts" (
	"campaign_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"class" text NOT NULL,
	"events" bigint NOT NULL,
	"uniques" bigint NOT NULL,
	CONSTRAINT "campaign_report_counts_campaign_id_hour_class_pk" PRIMARY KEY("campaign_id","hour","class")
);
--> statement-breakpoint
CREATE TABLE "message_event_firsts" (
	"campaign_id" uuid NOT NULL,
	"class" text NOT NULL,
	"message_id" bigint NOT NULL,
	CONSTRAINT "message_event_firsts_campaign_id_class_message_id_pk" PRIMARY KEY("campaign_id","class","message_id")
);
--> statement-breakpoint
ALTER TABLE "campaign_report_counts" ADD CONSTRAINT "campaign_report_counts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_event_firsts" ADD CONSTRAINT "message_event_firsts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The campaign report's classes of one event (reports/report-classes.ts names them): the one mapping the trigger
-- and the backfill below share. A human click on a tracked link counts as `click` and as `link:<id>`.
CREATE FUNCTION "campaign_report_classes"(kind text, machine boolean, bounce_kind text, link_id integer)
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE kind
    WHEN 'open' THEN ARRAY[CASE WHEN machine THEN 'open:machine' ELSE 'open' END]
    WHEN 'click' THEN CASE WHEN machine THEN ARRAY['click:machine']
                           WHEN link_id IS NULL THEN ARRAY['click']
                           ELSE ARRAY['click', 'link:' || link_id] END
    WHEN 'bounce' THEN ARRAY['bounce:' || coalesce(bounce_kind, 'unknown')]
    ELSE ARRAY[kind] END
$$;
--> statement-breakpoint
-- Every statement that inserts events (the tracking recorder's batches, bounces, complaints, unsubscribes) folds
-- them into the reports module's rollup in one more statement: the messages' firsts of each class it carries
-- (inserted ON CONFLICT DO NOTHING: a repeated open finds its message's row and adds nothing), then per campaign,
-- UTC hour and class the events and the new firsts (and an A/B test share's firsts by variant), added to the
-- counters in one upsert. Both inserts go in key
-- order, so two batches touching the same rows wait for each other instead of deadlocking.
CREATE FUNCTION "campaign_report_rollup_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH classified AS MATERIALIZED (
    SELECT e.campaign_id, e.message_id, date_trunc('hour', e.created_at, 'UTC') AS hour, c.class
      FROM report_events e
     CROSS JOIN LATERAL unnest(campaign_report_classes(e.kind, e.machine, e.bounce_kind, e.link_id)) AS c(class)
  ), candidates AS (
    SELECT campaign_id, class, message_id, min(hour) AS hour FROM classified
     WHERE class NOT LIKE '%:machine'
     GROUP BY campaign_id, class, message_id
  ), firsts AS (
    INSERT INTO message_event_firsts (campaign_id, class, message_id)
    SELECT campaign_id, class, message_id FROM candidates ORDER BY campaign_id, class, message_id
    ON CONFLICT DO NOTHING
    RETURNING campaign_id, class, message_id
  ), new_firsts AS (
    SELECT c.campaign_id, c.hour, c.class, c.message_id
      FROM firsts f JOIN candidates c USING (campaign_id, class, message_id)
  ), deltas AS (
    SELECT campaign_id, hour, class, count(*) AS events, 0 AS uniques FROM classified
     GROUP BY campaign_id, hour, class
    UNION ALL
    SELECT campaign_id, hour, class, 0, count(*) FROM new_firsts GROUP BY campaign_id, hour, class
    UNION ALL
    -- An A/B test's share (message ids up to the campaign's ab_test_last_message_id): its new first human opens
    -- and clicks by variant, `variant:<n>:open|click` — one probe of campaign_sends per first, and of messages
    -- for the test share's only (LATERAL … LIMIT 1: probes whatever the batch size, never a hash of messages).
    SELECT f.campaign_id, f.hour, 'variant:' || m.variant || ':' || f.class, 0, count(*)
      FROM new_firsts f
     CROSS JOIN LATERAL (SELECT ab_test_last_message_id AS test_last FROM campaign_sends
                          WHERE campaign_id = f.campaign_id LIMIT 1) s
     CROSS JOIN LATERAL (SELECT variant FROM messages WHERE id = f.message_id AND variant IS NOT NULL LIMIT 1) m
     WHERE f.class IN ('open', 'click') AND f.message_id <= s.test_last
     GROUP BY f.campaign_id, f.hour, 'variant:' || m.variant || ':' || f.class
  )
  INSERT INTO campaign_report_counts AS t (campaign_id, hour, class, events, uniques)
  SELECT campaign_id, hour, class, sum(events), sum(uniques) FROM deltas
   GROUP BY campaign_id, hour, class ORDER BY campaign_id, hour, class
  ON CONFLICT (campaign_id, hour, class)
  DO UPDATE SET events = t.events + excluded.events, uniques = t.uniques + excluded.uniques;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The events already recorded, folded once. The trigger is created first, in the same transaction: the lock it
-- takes on message_events holds new inserts until the backfill has committed, so no event is folded twice or missed.
CREATE TRIGGER "message_events_report_rollup" AFTER INSERT ON "message_events" REFERENCING NEW TABLE AS report_events
  FOR EACH STATEMENT EXECUTE FUNCTION "campaign_report_rollup_record"();
--> statement-breakpoint
WITH classified AS MATERIALIZED (
  SELECT e.campaign_id, e.message_id, date_trunc('hour', e.created_at, 'UTC') AS hour, c.class
    FROM message_events e
   CROSS JOIN LATERAL unnest(campaign_report_classes(e.kind, e.machine, e.bounce_kind, e.link_id)) AS c(class)
), candidates AS (
  SELECT campaign_id, class, message_id, min(hour) AS hour FROM classified
   WHERE class NOT LIKE '%:machine'
   GROUP BY campaign_id, class, message_id
), firsts AS (
  INSERT INTO message_event_firsts (campaign_id, class, message_id)
  SELECT campaign_id, class, message_id FROM candidates
)
INSERT INTO campaign_report_counts (campaign_id, hour, class, events, uniques)
SELECT campaign_id, hour, class, sum(events), sum(uniques) FROM (
  SELECT campaign_id, hour, class, count(*) AS events, 0 AS uniques FROM classified GROUP BY campaign_id, hour, class
  UNION ALL
  SELECT campaign_id, hour, class, 0, count(*) FROM candidates GROUP BY campaign_id, hour, class
  UNION ALL
  SELECT c.campaign_id, c.hour, 'variant:' || m.variant || ':' || c.class, 0, count(*)
    FROM candidates c
    JOIN campaign_sends s ON s.campaign_id = c.campaign_id AND c.message_id <= s.ab_test_last_message_id
    JOIN messages m ON m.id = c.message_id AND m.variant IS NOT NULL
   WHERE c.class IN ('open', 'click')
   GROUP BY c.campaign_id, c.hour, 'variant:' || m.variant || ':' || c.class
) deltas
GROUP BY campaign_id, hour, class;
