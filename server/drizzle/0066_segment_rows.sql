-- ADR 0043: segment_engagement becomes the contact's segment row — a row for every contact of the account, holding
-- beside its engagement the contact's status, creation, lower-cased e-mail, name and field texts, its typed fields
-- and its subscribed lists, kept in the writer's transaction by the triggers below — so a count whose conditions
-- read the contact reads one narrow row per contact instead of the contacts joined with every set the tree names
-- (the worst nesting at 1M: 1.8 s joined, ~0.4 s on the row; docs/benchmarks.md, session 25).
ALTER TABLE "segment_engagement" ADD COLUMN "contact_status" text;--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD COLUMN "contact_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD COLUMN "email_lower" text;--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD COLUMN "name_lower" text;--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD COLUMN "field_texts" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD COLUMN "field_numbers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD COLUMN "field_days" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "segment_engagement" ADD COLUMN "list_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
-- The contact's field texts lower-cased, and those that read as a number or a date typed with the parse of
-- migration 0050 (the conditions' own rule), each an object by key ('{}' without any).
CREATE FUNCTION "segment_field_texts"(fields jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(jsonb_object_agg(e.key, lower(e.value)), '{}'::jsonb) FROM jsonb_each_text(fields) e
$$;
--> statement-breakpoint
CREATE FUNCTION "segment_field_numbers"(fields jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(jsonb_object_agg(e.key, contact_field_number(e.value)), '{}'::jsonb)
    FROM jsonb_each_text(fields) e WHERE contact_field_number(e.value) IS NOT NULL
$$;
--> statement-breakpoint
CREATE FUNCTION "segment_field_days"(fields jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(jsonb_object_agg(e.key, contact_field_day(e.value)), '{}'::jsonb)
    FROM jsonb_each_text(fields) e WHERE contact_field_day(e.value) IS NOT NULL
$$;
--> statement-breakpoint
-- The subscribed lists of a contact, in id order.
CREATE FUNCTION "segment_list_ids"(contact uuid) RETURNS uuid[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(lm.list_id ORDER BY lm.list_id), '{}'::uuid[])
    FROM list_memberships lm WHERE lm.contact_id = contact AND lm.status = 'subscribed'
$$;
--> statement-breakpoint
-- Inserted contacts get their row (none exists: a deleted contact's row went with it).
CREATE FUNCTION "segment_rows_insert"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO segment_engagement AS g (account_id, contact_id, contact_status, contact_created_at, email_lower,
                                       name_lower, field_texts, field_numbers, field_days, list_ids)
  SELECT n.account_id, n.id, n.status, n.created_at, lower(n.email), lower(coalesce(n.name, '')),
         segment_field_texts(n.fields), segment_field_numbers(n.fields), segment_field_days(n.fields),
         segment_list_ids(n.id)
    FROM new_contacts n ORDER BY n.account_id, n.id
  ON CONFLICT (account_id, contact_id) DO UPDATE SET
    contact_status = excluded.contact_status, contact_created_at = excluded.contact_created_at,
    email_lower = excluded.email_lower, name_lower = excluded.name_lower, field_texts = excluded.field_texts,
    field_numbers = excluded.field_numbers, field_days = excluded.field_days, list_ids = excluded.list_ids;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Updated contacts: the columns that changed (the typed fields only when the fields did); a contact moved to another
-- account leaves its engagement behind and starts a row there.
CREATE FUNCTION "segment_rows_update"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  DELETE FROM segment_engagement g
   USING old_contacts o JOIN new_contacts n ON n.id = o.id
   WHERE n.account_id <> o.account_id AND g.account_id = o.account_id AND g.contact_id = o.id;
  INSERT INTO segment_engagement AS g (account_id, contact_id, contact_status, contact_created_at, email_lower,
                                       name_lower, field_texts, field_numbers, field_days, list_ids)
  SELECT n.account_id, n.id, n.status, n.created_at, lower(n.email), lower(coalesce(n.name, '')),
         segment_field_texts(n.fields), segment_field_numbers(n.fields), segment_field_days(n.fields),
         segment_list_ids(n.id)
    FROM new_contacts n JOIN old_contacts o ON o.id = n.id
   WHERE (n.account_id, n.status, n.created_at, n.email, n.name, n.fields)
         IS DISTINCT FROM (o.account_id, o.status, o.created_at, o.email, o.name, o.fields)
   ORDER BY n.account_id, n.id
  ON CONFLICT (account_id, contact_id) DO UPDATE SET
    contact_status = excluded.contact_status, contact_created_at = excluded.contact_created_at,
    email_lower = excluded.email_lower, name_lower = excluded.name_lower, field_texts = excluded.field_texts,
    field_numbers = excluded.field_numbers, field_days = excluded.field_days;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_segment_rows_insert" AFTER INSERT ON "contacts"
  REFERENCING NEW TABLE AS new_contacts FOR EACH STATEMENT EXECUTE FUNCTION "segment_rows_insert"();
--> statement-breakpoint
CREATE TRIGGER "contacts_segment_rows_update" AFTER UPDATE ON "contacts"
  REFERENCING OLD TABLE AS old_contacts NEW TABLE AS new_contacts FOR EACH STATEMENT
  EXECUTE FUNCTION "segment_rows_update"();
--> statement-breakpoint
-- A membership written or deleted: its contact's lists again, where they changed (a deleted contact has no row).
-- The rows are locked first, in key order, by a statement of their own: the UPDATE then starts after any other
-- transaction writing the same contact's memberships has committed, and reads its memberships too — read in the
-- UPDATE alone, two concurrent subscriptions to two lists each wrote the lists it saw, and one list was lost.
CREATE FUNCTION "segment_rows_lists"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM 1 FROM segment_engagement g
    WHERE (g.account_id, g.contact_id) IN (SELECT c.account_id, c.id FROM contacts c
                                            WHERE c.id IN (SELECT m.contact_id FROM changed_memberships m))
    ORDER BY g.account_id, g.contact_id FOR UPDATE OF g;
  UPDATE segment_engagement g SET list_ids = l.ids
    FROM (SELECT c.account_id, c.id, segment_list_ids(c.id) AS ids
            FROM contacts c
           WHERE c.id IN (SELECT m.contact_id FROM changed_memberships m)
           ORDER BY c.account_id, c.id) l
   WHERE g.account_id = l.account_id AND g.contact_id = l.id AND g.list_ids IS DISTINCT FROM l.ids;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "list_memberships_segment_rows_insert" AFTER INSERT ON "list_memberships"
  REFERENCING NEW TABLE AS changed_memberships FOR EACH STATEMENT EXECUTE FUNCTION "segment_rows_lists"();
--> statement-breakpoint
CREATE TRIGGER "list_memberships_segment_rows_update" AFTER UPDATE ON "list_memberships"
  REFERENCING NEW TABLE AS changed_memberships FOR EACH STATEMENT EXECUTE FUNCTION "segment_rows_lists"();
--> statement-breakpoint
CREATE TRIGGER "list_memberships_segment_rows_delete" AFTER DELETE ON "list_memberships"
  REFERENCING OLD TABLE AS changed_memberships FOR EACH STATEMENT EXECUTE FUNCTION "segment_rows_lists"();
--> statement-breakpoint
-- The engagement facts (the events' trigger, a campaign's fold) as their own type — the table's row type now has the
-- contact's columns too — merged into the contact's existing row: every existing contact has one, so a fact of a
-- contact that no longer exists finds none and is dropped (migration 0059's rule, without its check).
CREATE TYPE "segment_engagement_fact" AS (
  account_id uuid, contact_id uuid, last_opened_campaign_id uuid, last_opened_campaign_at timestamptz,
  last_clicked_campaign_id uuid, last_clicked_campaign_at timestamptz, last_delivered_campaign_id uuid,
  last_delivered_campaign_at timestamptz, ever_opened boolean
);
--> statement-breakpoint
DROP FUNCTION "segment_engagement_merge"(segment_engagement[]);
--> statement-breakpoint
CREATE FUNCTION "segment_engagement_merge"(facts segment_engagement_fact[]) RETURNS void LANGUAGE sql AS $$
  UPDATE segment_engagement g SET
    last_opened_campaign_id = CASE WHEN segment_engagement_newer(f.last_opened_campaign_at, f.last_opened_campaign_id, g.last_opened_campaign_at, g.last_opened_campaign_id)
                                   THEN f.last_opened_campaign_id ELSE g.last_opened_campaign_id END,
    last_opened_campaign_at = CASE WHEN segment_engagement_newer(f.last_opened_campaign_at, f.last_opened_campaign_id, g.last_opened_campaign_at, g.last_opened_campaign_id)
                                   THEN f.last_opened_campaign_at ELSE g.last_opened_campaign_at END,
    last_clicked_campaign_id = CASE WHEN segment_engagement_newer(f.last_clicked_campaign_at, f.last_clicked_campaign_id, g.last_clicked_campaign_at, g.last_clicked_campaign_id)
                                    THEN f.last_clicked_campaign_id ELSE g.last_clicked_campaign_id END,
    last_clicked_campaign_at = CASE WHEN segment_engagement_newer(f.last_clicked_campaign_at, f.last_clicked_campaign_id, g.last_clicked_campaign_at, g.last_clicked_campaign_id)
                                    THEN f.last_clicked_campaign_at ELSE g.last_clicked_campaign_at END,
    ever_opened = g.ever_opened OR f.ever_opened
  FROM unnest(facts) f
  WHERE g.account_id = f.account_id AND g.contact_id = f.contact_id
    AND (segment_engagement_newer(f.last_opened_campaign_at, f.last_opened_campaign_id, g.last_opened_campaign_at, g.last_opened_campaign_id)
      OR segment_engagement_newer(f.last_clicked_campaign_at, f.last_clicked_campaign_id, g.last_clicked_campaign_at, g.last_clicked_campaign_id)
      OR (f.ever_opened AND NOT g.ever_opened))
$$;
--> statement-breakpoint
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
                   bool_or(e.kind = 'open'))::segment_engagement_fact AS f
             FROM new_events e
             LEFT JOIN (SELECT id, coalesce(started_at, '-infinity') AS at FROM campaigns WHERE status = 'sent') k
               ON k.id = e.campaign_id
            WHERE e.kind IN ('open', 'click') AND NOT e.machine AND e.contact_id IS NOT NULL
            GROUP BY e.account_id, e.contact_id
           HAVING bool_or(k.id IS NOT NULL) OR bool_or(e.kind = 'open')) facts;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Backfill: a row for every contact, the contact's columns on every row (the triggers above hold contacts' and
-- memberships' writers off until this commits).
INSERT INTO segment_engagement AS g (account_id, contact_id, contact_status, contact_created_at, email_lower,
                                     name_lower, field_texts, field_numbers, field_days, list_ids)
SELECT c.account_id, c.id, c.status, c.created_at, lower(c.email), lower(coalesce(c.name, '')),
       segment_field_texts(c.fields), segment_field_numbers(c.fields), segment_field_days(c.fields),
       coalesce(l.ids, '{}'::uuid[])
  FROM contacts c
  LEFT JOIN (SELECT lm.contact_id, array_agg(lm.list_id ORDER BY lm.list_id) AS ids
               FROM list_memberships lm WHERE lm.status = 'subscribed' GROUP BY lm.contact_id) l ON l.contact_id = c.id
ON CONFLICT (account_id, contact_id) DO UPDATE SET
  contact_status = excluded.contact_status, contact_created_at = excluded.contact_created_at,
  email_lower = excluded.email_lower, name_lower = excluded.name_lower, field_texts = excluded.field_texts,
  field_numbers = excluded.field_numbers, field_days = excluded.field_days, list_ids = excluded.list_ids;
--> statement-breakpoint
-- The backfill rewrote every row: the table once more in key order, without the dead versions (as migration 0051).
CLUSTER "segment_engagement" USING "segment_engagement_account_id_contact_id_pk";
