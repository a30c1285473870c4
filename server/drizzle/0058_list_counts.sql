CREATE TABLE "list_count_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"list_id" uuid NOT NULL,
	"members" integer NOT NULL,
	"subscribed" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "list_count_deltas_list_idx" ON "list_count_deltas" USING btree ("list_id");--> statement-breakpoint
-- A list's member and subscribed counts kept as delta rows by statement-level triggers (lists.db.ts
-- list_count_deltas, ADR 0041): subscribed = membership subscribed and contact subscribed. Exact while no single
-- statement writes both memberships and contacts' status (each trigger reads the other table as it is): none does.
-- Inserted memberships: the reference check (migration 0017's, as it was) already probes each row's contact; the
-- same probe now also says whether the contact is subscribed, and the counts are appended from it (a second probe
-- of every contact cost the import ~10 µs a row). Every join to contacts or memberships below is such a
-- LATERAL … LIMIT 1 probe of a primary key or index, whatever the statistics say (migration 0017's lesson: a join
-- planned on stale statistics hashed a scan of every contact per batch).
CREATE OR REPLACE FUNCTION "list_memberships_check_refs"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  got int;
  total int;
  others uuid[];
  me xid := pg_current_xact_id()::xid;
BEGIN
  SELECT array_agg(DISTINCT list_id), count(*) INTO ids, total FROM new_memberships;
  PERFORM 1 FROM lists l WHERE l.id = ANY (ids) FOR KEY SHARE OF l;
  GET DIAGNOSTICS got = ROW_COUNT;
  IF got < coalesce(cardinality(ids), 0) THEN
    RAISE EXCEPTION 'insert or update on table "list_memberships" violates foreign key constraint "list_memberships_list_id_lists_id_fk"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'list_memberships', CONSTRAINT = 'list_memberships_list_id_lists_id_fk';
  END IF;
  -- Every row's contact exists; those the current transaction did not insert are then locked like a foreign key
  -- locks them (a contact deleted meanwhile by a committed transaction is not locked: the insert fails). The
  -- lists' counts take the new members; a failed check rolls them back with the statement.
  WITH probed AS MATERIALIZED (
         SELECT m.list_id, m.status = 'subscribed' AND c.status = 'subscribed' AS subscribed, c.id, c.own
           FROM new_memberships m
           CROSS JOIN LATERAL (SELECT c.id, c.status, c.xmin = me AS own FROM contacts c
                                WHERE c.id = m.contact_id LIMIT 1) c),
       counted AS (
         INSERT INTO list_count_deltas (list_id, members, subscribed)
         SELECT list_id, count(*)::int, count(*) FILTER (WHERE subscribed)::int FROM probed GROUP BY list_id
         RETURNING 1)
  SELECT count(*), array_agg(DISTINCT id) FILTER (WHERE NOT own) INTO got, others FROM probed;
  IF got = total AND others IS NOT NULL THEN
    PERFORM 1 FROM contacts c WHERE c.id = ANY (others) FOR KEY SHARE OF c;
    GET DIAGNOSTICS got = ROW_COUNT;
    got := CASE WHEN got = cardinality(others) THEN total ELSE -1 END;
  END IF;
  IF got < total THEN
    RAISE EXCEPTION 'insert or update on table "list_memberships" violates foreign key constraint "list_memberships_contact_id_contacts_id_fk"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'list_memberships', CONSTRAINT = 'list_memberships_contact_id_contacts_id_fk';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A deleted list's memberships go after the list (migration 0016): nothing is counted for a list that is gone.
CREATE FUNCTION "list_counts_memberships_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_count_deltas (list_id, members, subscribed)
  SELECT o.list_id, -count(*)::int,
         -(count(*) FILTER (WHERE o.status = 'subscribed'
                              AND (SELECT c.status FROM contacts c WHERE c.id = o.contact_id LIMIT 1) = 'subscribed'))::int
    FROM old_memberships o
   WHERE EXISTS (SELECT 1 FROM lists l WHERE l.id = o.list_id)
   GROUP BY o.list_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "list_counts_memberships_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_count_deltas (list_id, members, subscribed)
  SELECT d.list_id, sum(d.members)::int, sum(d.subscribed)::int
    FROM (SELECT n.list_id, 1 AS members,
                 CASE WHEN n.status = 'subscribed'
                       AND (SELECT c.status FROM contacts c WHERE c.id = n.contact_id LIMIT 1) = 'subscribed'
                      THEN 1 ELSE 0 END AS subscribed
            FROM new_memberships n
          UNION ALL
          SELECT o.list_id, -1,
                 CASE WHEN o.status = 'subscribed'
                       AND (SELECT c.status FROM contacts c WHERE c.id = o.contact_id LIMIT 1) = 'subscribed'
                      THEN -1 ELSE 0 END
            FROM old_memberships o) d
   WHERE EXISTS (SELECT 1 FROM lists l WHERE l.id = d.list_id)
   GROUP BY d.list_id
  HAVING sum(d.members) <> 0 OR sum(d.subscribed) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A contact that became subscribed (or stopped being) adds to (takes from) every list it is a subscribed member of.
CREATE FUNCTION "list_counts_contacts_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_count_deltas (list_id, members, subscribed)
  SELECT m.list_id, 0, sum(ch.delta)::int
    FROM (SELECT n.id, CASE WHEN n.status = 'subscribed' THEN 1 ELSE -1 END AS delta
            FROM new_contacts n JOIN old_contacts o ON o.id = n.id
           WHERE (n.status = 'subscribed') <> (o.status = 'subscribed')) ch
    CROSS JOIN LATERAL (SELECT m.list_id FROM list_memberships m
                         WHERE m.contact_id = ch.id AND m.status = 'subscribed') m
   GROUP BY m.list_id
  HAVING sum(ch.delta) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A deleted contact's memberships are deleted after it (migration 0016), when it is no longer there to say it was
-- subscribed: its subscribed memberships are taken from the subscribed counts first (the memberships' delete then
-- takes the members).
CREATE OR REPLACE FUNCTION "contacts_delete_memberships"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_count_deltas (list_id, members, subscribed)
  SELECT m.list_id, 0, -count(*)::int
    FROM old_contacts o
    CROSS JOIN LATERAL (SELECT m.list_id FROM list_memberships m
                         WHERE m.contact_id = o.id AND m.status = 'subscribed') m
   WHERE o.status = 'subscribed'
   GROUP BY m.list_id;
  DELETE FROM list_memberships m WHERE m.contact_id IN (SELECT id FROM old_contacts);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "lists_delete_memberships"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_memberships m WHERE m.list_id IN (SELECT id FROM old_lists);
  DELETE FROM list_count_deltas d WHERE d.list_id IN (SELECT id FROM old_lists);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "list_memberships_counts_del" AFTER DELETE ON "list_memberships"
  REFERENCING OLD TABLE AS old_memberships FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_memberships_delete"();
--> statement-breakpoint
CREATE TRIGGER "list_memberships_counts_upd" AFTER UPDATE ON "list_memberships"
  REFERENCING OLD TABLE AS old_memberships NEW TABLE AS new_memberships FOR EACH STATEMENT
  EXECUTE FUNCTION "list_counts_memberships_update"();
--> statement-breakpoint
CREATE TRIGGER "contacts_list_counts_upd" AFTER UPDATE ON "contacts"
  REFERENCING OLD TABLE AS old_contacts NEW TABLE AS new_contacts FOR EACH STATEMENT
  EXECUTE FUNCTION "list_counts_contacts_update"();
--> statement-breakpoint
-- The lists as they are (the triggers above hold memberships' and contacts' writers off until this commits).
INSERT INTO list_count_deltas (list_id, members, subscribed)
SELECT l.id,
       (SELECT count(*) FROM list_memberships m WHERE m.list_id = l.id)::int,
       (SELECT count(*) FROM list_memberships m JOIN contacts c ON c.id = m.contact_id
         WHERE m.list_id = l.id AND m.status = 'subscribed' AND c.status = 'subscribed')::int
  FROM lists l;
