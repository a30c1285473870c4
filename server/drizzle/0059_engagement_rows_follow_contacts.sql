-- segment_engagement holds existing contacts only, so a segment can count one of its sets without reading contacts
-- (ADR 0042). Rows of contacts deleted before (erasure, bulk deletion) go now, and contact_first_opens' too: a
-- deleted contact keeps no engagement facts (its events stay, as before).
DELETE FROM "segment_engagement" g WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = g.contact_id);
--> statement-breakpoint
DELETE FROM "contact_first_opens" o WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = o.contact_id);
--> statement-breakpoint
-- A contact's deletion takes its engagement rows, holding the account's engagement lock (class 2611) exclusively:
-- segment_engagement's writers (the events' trigger shared, a campaign's fold alone) hold it while they check that
-- a contact exists and write its row, so a row written for a contact being deleted is either seen and deleted here
-- or written after the deletion is visible, and skipped. contact_first_opens' trigger does not check (a late open
-- of an erased contact's message may add its row again): segments count "nunca abriu" from segment_engagement.
CREATE FUNCTION "contacts_delete_engagement"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(2611, hashtext(a.account_id::text))
     FROM (SELECT DISTINCT account_id FROM old_contacts ORDER BY account_id) a;
  DELETE FROM segment_engagement g WHERE (g.account_id, g.contact_id) IN (SELECT account_id, id FROM old_contacts);
  DELETE FROM contact_first_opens o WHERE (o.account_id, o.contact_id) IN (SELECT account_id, id FROM old_contacts);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_delete_engagement" AFTER DELETE ON "contacts"
  REFERENCING OLD TABLE AS old_contacts FOR EACH STATEMENT EXECUTE FUNCTION "contacts_delete_engagement"();
--> statement-breakpoint
-- The one upsert of segment_engagement (the events' trigger and the campaign fold) skips facts of contacts that no
-- longer exist: events of an erased contact's messages stay, and may still arrive.
CREATE OR REPLACE FUNCTION "segment_engagement_merge"(facts segment_engagement[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO segment_engagement AS g
  SELECT f.* FROM unnest(facts) f WHERE EXISTS (SELECT 1 FROM contacts c WHERE c.id = f.contact_id)
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
