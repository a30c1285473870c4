DROP TABLE "segment_deliveries" CASCADE;--> statement-breakpoint
DROP TABLE "segment_folded_campaigns" CASCADE;--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD COLUMN "last_delivered_campaign_id" uuid;--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD COLUMN "last_delivered_campaign_at" timestamp with time zone;--> statement-breakpoint
-- The trigger's facts are rows of segment_engagement: two more columns, left null (an event says nothing of
-- deliveries; segment_engagement_merge updates only the opened/clicked columns).
CREATE OR REPLACE FUNCTION "segment_engagement_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(2611, hashtext(a.account_id::text))
     FROM (SELECT DISTINCT account_id FROM new_events
            WHERE kind IN ('open', 'click') AND NOT machine AND contact_id IS NOT NULL ORDER BY account_id) a;
  PERFORM segment_engagement_merge(array_agg(f))
     FROM (SELECT (e.account_id, e.contact_id,
                   (array_agg(k.id ORDER BY k.at DESC, k.id DESC) FILTER (WHERE e.kind = 'open'))[1],
                   max(k.at) FILTER (WHERE e.kind = 'open'),
                   (array_agg(k.id ORDER BY k.at DESC, k.id DESC) FILTER (WHERE e.kind = 'click'))[1],
                   max(k.at) FILTER (WHERE e.kind = 'click'),
                   NULL::uuid, NULL::timestamptz)::segment_engagement AS f
             FROM new_events e
             JOIN (SELECT id, coalesce(started_at, '-infinity') AS at FROM campaigns WHERE status = 'sent') k
               ON k.id = e.campaign_id
            WHERE e.kind IN ('open', 'click') AND NOT e.machine AND e.contact_id IS NOT NULL
            GROUP BY e.account_id, e.contact_id) facts;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every sent campaign's deliveries (its `sent` messages): each contact's newest delivered campaign among them.
INSERT INTO segment_engagement AS g (account_id, contact_id, last_delivered_campaign_id, last_delivered_campaign_at)
SELECT k.created_by, m.contact_id, (array_agg(k.id ORDER BY k.at DESC, k.id DESC))[1], max(k.at)
  FROM messages m
  JOIN (SELECT id, created_by, coalesce(started_at, '-infinity') AS at FROM campaigns WHERE status = 'sent') k
    ON k.id = m.campaign_id
 WHERE m.status = 'sent' AND m.contact_id IS NOT NULL
 GROUP BY k.created_by, m.contact_id
ON CONFLICT (account_id, contact_id) DO UPDATE
   SET last_delivered_campaign_id = excluded.last_delivered_campaign_id,
       last_delivered_campaign_at = excluded.last_delivered_campaign_at;
