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
CREATE FUNCTION "list_counts_memberships_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_count_deltas (list_id, members, subscribed)
  SELECT n.list_id, count(*)::int, count(*) FILTER (WHERE n.status = 'subscribed' AND c.status = 'subscribed')::int
    FROM new_memberships n LEFT JOIN contacts c ON c.id = n.contact_id
   GROUP BY n.list_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A deleted list's memberships go after the list (migration 0016): nothing is counted for a list that is gone.
CREATE FUNCTION "list_counts_memberships_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_count_deltas (list_id, members, subscribed)
  SELECT o.list_id, -count(*)::int,
         -(count(*) FILTER (WHERE o.status = 'subscribed' AND c.status = 'subscribed'))::int
    FROM old_memberships o LEFT JOIN contacts c ON c.id = o.contact_id
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
                 CASE WHEN n.status = 'subscribed' AND c.status = 'subscribed' THEN 1 ELSE 0 END AS subscribed
            FROM new_memberships n LEFT JOIN contacts c ON c.id = n.contact_id
          UNION ALL
          SELECT o.list_id, -1, CASE WHEN o.status = 'subscribed' AND c.status = 'subscribed' THEN -1 ELSE 0 END
            FROM old_memberships o LEFT JOIN contacts c ON c.id = o.contact_id) d
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
  SELECT m.list_id, 0, sum(CASE WHEN n.status = 'subscribed' THEN 1 ELSE -1 END)::int
    FROM new_contacts n
    JOIN old_contacts o ON o.id = n.id
    JOIN list_memberships m ON m.contact_id = n.id AND m.status = 'subscribed'
   WHERE (n.status = 'subscribed') <> (o.status = 'subscribed')
   GROUP BY m.list_id
  HAVING sum(CASE WHEN n.status = 'subscribed' THEN 1 ELSE -1 END) <> 0;
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
    FROM old_contacts o JOIN list_memberships m ON m.contact_id = o.id AND m.status = 'subscribed'
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
CREATE TRIGGER "list_memberships_counts_ins" AFTER INSERT ON "list_memberships"
  REFERENCING NEW TABLE AS new_memberships FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_memberships_insert"();
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
