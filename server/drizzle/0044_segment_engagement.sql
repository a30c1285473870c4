CREATE TABLE "segment_engagement" (
	"account_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"last_opened_campaign_id" uuid,
	"last_opened_campaign_at" timestamp with time zone,
	"last_clicked_campaign_id" uuid,
	"last_clicked_campaign_at" timestamp with time zone,
	CONSTRAINT "segment_engagement_account_id_contact_id_pk" PRIMARY KEY("account_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "segment_engagement_folds" (
	"campaign_id" uuid PRIMARY KEY NOT NULL,
	"folded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD CONSTRAINT "segment_engagement_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_engagement_folds" ADD CONSTRAINT "segment_engagement_folds_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Which of two facts is newer in the order of "as últimas N campanhas" (start, then id; a campaign without a
-- start is older than every started one — the order segments read the account's sent campaigns in).
CREATE FUNCTION "segment_engagement_newer"(at timestamptz, id uuid, than_at timestamptz, than_id uuid)
  RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT id IS NOT NULL AND (than_id IS NULL OR (at, id) > (than_at, than_id))
$$;
--> statement-breakpoint
-- The one way segment_engagement is written: facts per contact (at most one row per account and contact per
-- call), each kept only where it is newer than the contact's. A fact that changes nothing updates nothing.
CREATE FUNCTION "segment_engagement_merge"(facts segment_engagement[]) RETURNS void LANGUAGE sql AS $$
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
                                    THEN excluded.last_clicked_campaign_at ELSE g.last_clicked_campaign_at END
  WHERE segment_engagement_newer(excluded.last_opened_campaign_at, excluded.last_opened_campaign_id, g.last_opened_campaign_at, g.last_opened_campaign_id)
     OR segment_engagement_newer(excluded.last_clicked_campaign_at, excluded.last_clicked_campaign_id, g.last_clicked_campaign_at, g.last_clicked_campaign_id)
$$;
--> statement-breakpoint
-- Human opens and clicks of *sent* campaigns carried by an insert into message_events (the tracking recorder's
-- batches, and any other writer), folded into segment_engagement once per statement. A campaign's events from
-- before it was sent are folded by the first segment count after (segment-engagement.ts), which holds this
-- account's advisory lock exclusively while it reads them: an insert holds it shared until it commits, so an
-- event is either visible to the fold or written here once the campaign is seen `sent` — never lost between.
CREATE FUNCTION "segment_engagement_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(2611, hashtext(a.account_id::text))
     FROM (SELECT DISTINCT account_id FROM new_events
            WHERE kind IN ('open', 'click') AND NOT machine AND contact_id IS NOT NULL ORDER BY account_id) a;
  PERFORM segment_engagement_merge(array_agg(f))
     FROM (SELECT (e.account_id, e.contact_id,
                   (array_agg(k.id ORDER BY k.at DESC, k.id DESC) FILTER (WHERE e.kind = 'open'))[1],
                   max(k.at) FILTER (WHERE e.kind = 'open'),
                   (array_agg(k.id ORDER BY k.at DESC, k.id DESC) FILTER (WHERE e.kind = 'click'))[1],
                   max(k.at) FILTER (WHERE e.kind = 'click'))::segment_engagement AS f
             FROM new_events e
             JOIN (SELECT id, coalesce(started_at, '-infinity') AS at FROM campaigns WHERE status = 'sent') k
               ON k.id = e.campaign_id
            WHERE e.kind IN ('open', 'click') AND NOT e.machine AND e.contact_id IS NOT NULL
            GROUP BY e.account_id, e.contact_id) facts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "message_events_segment_engagement" AFTER INSERT ON "message_events"
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION "segment_engagement_record"();
--> statement-breakpoint
-- Every campaign already sent, folded: each contact's newest opened and clicked among them.
INSERT INTO segment_engagement_folds (campaign_id) SELECT id FROM campaigns WHERE status = 'sent';
--> statement-breakpoint
INSERT INTO segment_engagement
SELECT e.account_id, e.contact_id,
       (array_agg(k.id ORDER BY k.at DESC, k.id DESC) FILTER (WHERE e.kind = 'open'))[1],
       max(k.at) FILTER (WHERE e.kind = 'open'),
       (array_agg(k.id ORDER BY k.at DESC, k.id DESC) FILTER (WHERE e.kind = 'click'))[1],
       max(k.at) FILTER (WHERE e.kind = 'click')
  FROM message_events e
  JOIN (SELECT id, coalesce(started_at, '-infinity') AS at FROM campaigns WHERE status = 'sent') k ON k.id = e.campaign_id
 WHERE e.kind IN ('open', 'click') AND NOT e.machine AND e.contact_id IS NOT NULL
 GROUP BY e.account_id, e.contact_id;
