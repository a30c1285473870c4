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
-- migration 0050 (the conditions' own rule), each an object by key ('{}' without any): one pass over the fields, a
-- set-returning SQL function the planner inlines as a lateral sub-query (three scalar functions, each a sub-query
-- called per contact, cost ~50 µs a contact).
CREATE FUNCTION "segment_field_columns"(fields jsonb) RETURNS TABLE (texts jsonb, numbers jsonb, days jsonb)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(jsonb_object_agg(e.key, lower(e.value)), '{}'::jsonb),
         coalesce(jsonb_object_agg(e.key, contact_field_number(e.value))
                    FILTER (WHERE contact_field_number(e.value) IS NOT NULL), '{}'::jsonb),
         coalesce(jsonb_object_agg(e.key, contact_field_day(e.value))
                    FILTER (WHERE contact_field_day(e.value) IS NOT NULL), '{}'::jsonb)
    FROM jsonb_each_text(fields) e
$$;
--> statement-breakpoint
-- Inserted contacts get their row (none exists: a deleted contact's row went with it; no membership exists yet).
-- The functions below that update rows do it by key: with sequential scans and hash or merge joins off they probe
-- the primary key per row, whatever the statistics (and the plans cached with them) of tables a long import is still
-- growing say — an import of 200k contacts ran 85× slower, and slower with every batch, while a statement read a
-- whole table or index per batch or per contact.
CREATE FUNCTION "segment_rows_insert"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO segment_engagement AS g (account_id, contact_id, contact_status, contact_created_at, email_lower,
                                       name_lower, field_texts, field_numbers, field_days)
  SELECT n.account_id, n.id, n.status, n.created_at, lower(n.email), lower(coalesce(n.name, '')),
         f.texts, f.numbers, f.days
    FROM new_contacts n CROSS JOIN LATERAL segment_field_columns(n.fields) f ORDER BY n.account_id, n.id
  ON CONFLICT (account_id, contact_id) DO UPDATE SET
    contact_status = excluded.contact_status, contact_created_at = excluded.contact_created_at,
    email_lower = excluded.email_lower, name_lower = excluded.name_lower, field_texts = excluded.field_texts,
    field_numbers = excluded.field_numbers, field_days = excluded.field_days;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Updated contacts: the columns that changed (the typed fields only when the fields did); a contact moved to another
-- account leaves its engagement behind and starts a row there.
CREATE FUNCTION "segment_rows_update"() RETURNS trigger LANGUAGE plpgsql
  SET jit = off SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  DELETE FROM segment_engagement g
   USING old_contacts o JOIN new_contacts n ON n.id = o.id
   WHERE n.account_id <> o.account_id AND g.account_id = o.account_id AND g.contact_id = o.id;
  INSERT INTO segment_engagement AS g (account_id, contact_id, contact_status, contact_created_at, email_lower,
                                       name_lower, field_texts, field_numbers, field_days, list_ids)
  SELECT n.account_id, n.id, n.status, n.created_at, lower(n.email), lower(coalesce(n.name, '')),
         f.texts, f.numbers, f.days,
         -- Read only for a contact moved to another account (a new row); a conflict keeps the row's lists.
         CASE WHEN n.account_id <> o.account_id
              THEN coalesce((SELECT array_agg(lm.list_id ORDER BY lm.list_id) FILTER (WHERE lm.status = 'subscribed')
                               FROM list_memberships lm WHERE lm.contact_id = n.id), '{}'::uuid[])
              ELSE '{}'::uuid[] END
    FROM new_contacts n JOIN old_contacts o ON o.id = n.id CROSS JOIN LATERAL segment_field_columns(n.fields) f
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
-- A membership written or deleted: its contact's lists, less the lists of the memberships that stopped being
-- subscribed (`gone`: the old rows) and with those that are subscribed now (`came`: the new rows), applied to the
-- row as it is when the UPDATE writes it — PostgreSQL re-evaluates the assignment on the newest version of a row a
-- concurrent transaction changed, so two transactions subscribing one contact to two lists keep both (a
-- recomputation from list_memberships read each its own snapshot, and one list was lost). Neither reads
-- list_memberships, which an import grows as it goes (a recomputation per contact ran an import of 200k contacts 85×
-- slower once a plan cached while the table was small read a whole index per contact). A deleted contact has no row.
CREATE FUNCTION "segment_rows_lists"(gone_contacts uuid[], gone_lists uuid[], came_contacts uuid[], came_lists uuid[])
  RETURNS void LANGUAGE sql SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
  UPDATE segment_engagement g
     SET list_ids = coalesce((SELECT array_agg(DISTINCT u.x ORDER BY u.x)
                                FROM (SELECT x FROM unnest(g.list_ids) x WHERE x <> ALL (d.gone)
                                      UNION ALL SELECT unnest(d.came)) u(x)), '{}'::uuid[])
    FROM (SELECT c.account_id, c.id,
                 coalesce(array_agg(m.list_id) FILTER (WHERE m.gone), '{}'::uuid[]) AS gone,
                 coalesce(array_agg(m.list_id) FILTER (WHERE NOT m.gone), '{}'::uuid[]) AS came
            FROM (SELECT true AS gone, o.contact_id, o.list_id FROM unnest(gone_contacts, gone_lists) o(contact_id, list_id)
                  UNION ALL
                  SELECT false, n.contact_id, n.list_id FROM unnest(came_contacts, came_lists) n(contact_id, list_id)) m
            JOIN contacts c ON c.id = m.contact_id
           GROUP BY c.account_id, c.id) d
   WHERE g.account_id = d.account_id AND g.contact_id = d.id
$$;
--> statement-breakpoint
-- The subscribed memberships a statement added, and those it took away (old rows subscribed: an update that keeps a
-- membership subscribed takes it away and adds it back).
CREATE FUNCTION "segment_rows_lists_insert"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM segment_rows_lists('{}', '{}', array_agg(n.contact_id), array_agg(n.list_id))
     FROM new_memberships n WHERE n.status = 'subscribed' HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "segment_rows_lists_update"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM segment_rows_lists(
    (SELECT coalesce(array_agg(o.contact_id), '{}') FROM old_memberships o WHERE o.status = 'subscribed'),
    (SELECT coalesce(array_agg(o.list_id), '{}') FROM old_memberships o WHERE o.status = 'subscribed'),
    (SELECT coalesce(array_agg(n.contact_id), '{}') FROM new_memberships n WHERE n.status = 'subscribed'),
    (SELECT coalesce(array_agg(n.list_id), '{}') FROM new_memberships n WHERE n.status = 'subscribed'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "segment_rows_lists_delete"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM segment_rows_lists(array_agg(o.contact_id), array_agg(o.list_id), '{}', '{}')
     FROM old_memberships o WHERE o.status = 'subscribed' HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "list_memberships_segment_rows_insert" AFTER INSERT ON "list_memberships"
  REFERENCING NEW TABLE AS new_memberships FOR EACH STATEMENT EXECUTE FUNCTION "segment_rows_lists_insert"();
--> statement-breakpoint
CREATE TRIGGER "list_memberships_segment_rows_update" AFTER UPDATE ON "list_memberships"
  REFERENCING OLD TABLE AS old_memberships NEW TABLE AS new_memberships FOR EACH STATEMENT
  EXECUTE FUNCTION "segment_rows_lists_update"();
--> statement-breakpoint
CREATE TRIGGER "list_memberships_segment_rows_delete" AFTER DELETE ON "list_memberships"
  REFERENCING OLD TABLE AS old_memberships FOR EACH STATEMENT EXECUTE FUNCTION "segment_rows_lists_delete"();
--> statement-breakpoint
-- The engagement facts (the events' trigger, a campaign's fold) as their own type — the table's row type now has the
-- contact's columns too — merged as before (migration 0059: a fact of a contact that no longer exists is skipped;
-- every existing contact has its row, so the merge updates it through the primary key).
CREATE TYPE "segment_engagement_fact" AS (
  account_id uuid, contact_id uuid, last_opened_campaign_id uuid, last_opened_campaign_at timestamptz,
  last_clicked_campaign_id uuid, last_clicked_campaign_at timestamptz, last_delivered_campaign_id uuid,
  last_delivered_campaign_at timestamptz, ever_opened boolean
);
--> statement-breakpoint
DROP FUNCTION "segment_engagement_merge"(segment_engagement[]);
--> statement-breakpoint
CREATE FUNCTION "segment_engagement_merge"(facts segment_engagement_fact[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO segment_engagement AS g (account_id, contact_id, last_opened_campaign_id, last_opened_campaign_at,
                                       last_clicked_campaign_id, last_clicked_campaign_at, ever_opened)
  SELECT f.account_id, f.contact_id, f.last_opened_campaign_id, f.last_opened_campaign_at,
         f.last_clicked_campaign_id, f.last_clicked_campaign_at, f.ever_opened
    FROM unnest(facts) f WHERE EXISTS (SELECT 1 FROM contacts c WHERE c.id = f.contact_id)
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
       f.texts, f.numbers, f.days,
       coalesce(l.ids, '{}'::uuid[])
  FROM contacts c CROSS JOIN LATERAL segment_field_columns(c.fields) f
  LEFT JOIN (SELECT lm.contact_id, array_agg(lm.list_id ORDER BY lm.list_id) AS ids
               FROM list_memberships lm WHERE lm.status = 'subscribed' GROUP BY lm.contact_id) l ON l.contact_id = c.id
ON CONFLICT (account_id, contact_id) DO UPDATE SET
  contact_status = excluded.contact_status, contact_created_at = excluded.contact_created_at,
  email_lower = excluded.email_lower, name_lower = excluded.name_lower, field_texts = excluded.field_texts,
  field_numbers = excluded.field_numbers, field_days = excluded.field_days, list_ids = excluded.list_ids;
--> statement-breakpoint
-- The backfill rewrote every row: the table once more in key order, without the dead versions (as migration 0051).
CLUSTER "segment_engagement" USING "segment_engagement_account_id_contact_id_pk";
