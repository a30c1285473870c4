ALTER TABLE "segment_engagement" ADD COLUMN "ever_opened" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A fact now says whether its events include a human open of any campaign (sent or not); the merge keeps it once
-- true. The opened/clicked/delivered columns are merged as before.
CREATE OR REPLACE FUNCTION "segment_engagement_merge"(facts segment_engagement[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO segment_engagement AS g
  SELECT * FROM unnest(facts)
  ON CONFLICT (account_id, contact_id) DO UPDATE SET
    last_opened_campaign_id = CASE WHEN segment_engagement_newer(excluded.last_opened_campaign_at, excluded.last_opened_campaign_id, g.last_opened_campaign_at, g.last_opened_campaign_id)
                                   THEN excluded.last_opened_campaign_id ELSE g.last_opened_campaign_id END,
    last_opened_campaign_at = CASE WHEN segment_engagement_newer(excluded.last_opened_campaign_at, excluded.last_opened_campaign_id, g.last_opened_campaign_at, g.last_opened_campaign_id)
                                   THEN excluded.last_opened_campaign_at ELSE g.last_opened_campaign_at END,
    last_clicked_campaign_id = CASE WHEN segment_engagement_newer(excluded.last_clicked_campaign_at, excluded.last_clicked_campaign_id, g.last_clicked_campaign_at, g.last_clicked_campaign_id)
                                    THEN excluded.last_clicked_campaign_id ELSE g.last_clicked_campaign_id END,
    last_clicked_campaign_at = CASE WHEN segment_engagement_newer(excluded.last_clicked_campaign_at, excluded.last_clicked_campaign_id, g.last_clicked_campaign_at, g.last_clicked_campaign_id)
                                    THEN excluded.last_clicked_campaign_at ELSE g.last_clicked_campaign_at END,
    ever_opened = g.ever_opened OR excluded.ever_opened
  WHERE segment_engagement_newer(excluded.last_opened_campaign_at, excluded.last_opened_campaign_id, g.last_opened_campaign_at, g.last_opened_campaign_id)
     OR segment_engagement_newer(excluded.last_clicked_campaign_at, excluded.last_clicked_campaign_id, g.last_clicked_campaign_at, g.last_clicked_campaign_id)
     OR (excluded.ever_opened AND NOT g.ever_opened)
$$;
--> statement-breakpoint
-- Every human open or click of an insert: of sent campaigns, the newest opened and clicked (as before); of any
-- campaign, whether one is an open (ever_opened — what contact_first_opens says, on segments' own row).
CREATE OR REPLACE FUNCTION "segment_engagement_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(2611, hashtext(a.account_id::text))
     FROM (SELECT DISTINCT account_id FROM new_events
            WHERE kind IN ('open', 'click') AND NOT machine AND contact_id IS NOT NULL ORDER BY account_id) a;
  PERFORM segment_engagement_merge(array_agg(f))
     FROM (SELECT (e.account_id, e.contact_id,
                   (array_agg(k.id ORDER BY k.at DESC, k.id DESC) FILTER (WHERE e.kind = 'open' AND k.id IS NOT NULL))[1],
                   max(k.at) FILTER (WHERE e.kind = 'open'),
                   (array_agg(k.id ORDER BY k.at DESC, k.id DESC) FILTER (WHERE e.kind = 'click' AND k.id IS NOT NULL))[1],
                   max(k.at) FILTER (WHERE e.kind = 'click'),
                   NULL::uuid, NULL::timestamptz,
                   bool_or(e.kind = 'open'))::segment_engagement AS f
             FROM new_events e
             LEFT JOIN (SELECT id, coalesce(started_at, '-infinity') AS at FROM campaigns WHERE status = 'sent') k
               ON k.id = e.campaign_id
            WHERE e.kind IN ('open', 'click') AND NOT e.machine AND e.contact_id IS NOT NULL
            GROUP BY e.account_id, e.contact_id
           HAVING bool_or(k.id IS NOT NULL) OR bool_or(e.kind = 'open')) facts;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Everyone who ever opened as a person: contact_first_opens' rows.
INSERT INTO segment_engagement AS g (account_id, contact_id, ever_opened)
SELECT account_id, contact_id, true FROM contact_first_opens
ON CONFLICT (account_id, contact_id) DO UPDATE SET ever_opened = true;
