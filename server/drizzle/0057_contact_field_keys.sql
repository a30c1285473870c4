-- The custom field keys of each account's contacts, with how many contacts carry each, so the segment editor,
-- the templates and a segment's compile read rows instead of every contact's fields (ADR 0039, amendment 2).
CREATE TABLE "contact_field_keys" (
	"account_id" uuid NOT NULL,
	"key" text NOT NULL,
	"contacts" integer NOT NULL,
	CONSTRAINT "contact_field_keys_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
-- The triggers of migration 0050 (contact_field_values), which see every write of contacts' fields, now also keep
-- the keys: inserted contacts add theirs, deleted ones take theirs away, an update whose fields (or account)
-- changed takes the old keys away and adds the new. Rows are written in key order, so two statements adding to
-- the same keys lock them in the same order (no deadlock); a key whose deltas cancel out (a value changed, the
-- key stayed) is not written at all.
CREATE OR REPLACE FUNCTION "contact_field_values_insert"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO contact_field_values (contact_id, field, account_id, num, day)
  SELECT f.id, f.key, f.account_id, f.num, f.day
    FROM (SELECT n.id, n.account_id, e.key, contact_field_number(e.value) AS num, contact_field_day(e.value) AS day
            FROM new_contacts n CROSS JOIN LATERAL jsonb_each_text(n.fields) e) f
   WHERE f.num IS NOT NULL OR f.day IS NOT NULL;
  INSERT INTO contact_field_keys AS k (account_id, key, contacts)
  SELECT n.account_id, e.key, count(*)::int
    FROM new_contacts n CROSS JOIN LATERAL jsonb_object_keys(n.fields) e(key)
   GROUP BY n.account_id, e.key ORDER BY n.account_id, e.key
  ON CONFLICT (account_id, key) DO UPDATE SET contacts = k.contacts + excluded.contacts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "contact_field_values_update"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  DELETE FROM contact_field_values v
   USING old_contacts o
   WHERE v.contact_id = o.id
     AND NOT EXISTS (SELECT 1 FROM new_contacts n WHERE n.id = o.id AND n.account_id = o.account_id AND n.fields = o.fields);
  INSERT INTO contact_field_values (contact_id, field, account_id, num, day)
  SELECT f.id, f.key, f.account_id, f.num, f.day
    FROM (SELECT n.id, n.account_id, e.key, contact_field_number(e.value) AS num, contact_field_day(e.value) AS day
            FROM new_contacts n CROSS JOIN LATERAL jsonb_each_text(n.fields) e
           WHERE NOT EXISTS (SELECT 1 FROM old_contacts o
                              WHERE o.id = n.id AND o.account_id = n.account_id AND o.fields = n.fields)) f
   WHERE f.num IS NOT NULL OR f.day IS NOT NULL;
  INSERT INTO contact_field_keys AS k (account_id, key, contacts)
  SELECT d.account_id, d.key, sum(d.delta)::int
    FROM (SELECT n.account_id, e.key, 1 AS delta
            FROM new_contacts n CROSS JOIN LATERAL jsonb_object_keys(n.fields) e(key)
           WHERE NOT EXISTS (SELECT 1 FROM old_contacts o
                              WHERE o.id = n.id AND o.account_id = n.account_id AND o.fields = n.fields)
          UNION ALL
          SELECT o.account_id, e.key, -1
            FROM old_contacts o CROSS JOIN LATERAL jsonb_object_keys(o.fields) e(key)
           WHERE NOT EXISTS (SELECT 1 FROM new_contacts n
                              WHERE n.id = o.id AND n.account_id = o.account_id AND n.fields = o.fields)) d
   GROUP BY d.account_id, d.key HAVING sum(d.delta) <> 0 ORDER BY d.account_id, d.key
  ON CONFLICT (account_id, key) DO UPDATE SET contacts = k.contacts + excluded.contacts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "contact_field_values_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM contact_field_values v USING old_contacts o WHERE v.contact_id = o.id;
  -- A deleted account's contacts go by cascade, after the account row: its keys go with them (no foreign key, which
  -- this very statement would then violate); the others' contacts take their keys away.
  DELETE FROM contact_field_keys k
   WHERE k.account_id IN (SELECT DISTINCT o.account_id FROM old_contacts o)
     AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = k.account_id);
  INSERT INTO contact_field_keys AS k (account_id, key, contacts)
  SELECT o.account_id, e.key, -count(*)::int
    FROM old_contacts o CROSS JOIN LATERAL jsonb_object_keys(o.fields) e(key)
   WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = o.account_id)
   GROUP BY o.account_id, e.key ORDER BY o.account_id, e.key
  ON CONFLICT (account_id, key) DO UPDATE SET contacts = k.contacts + excluded.contacts;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Backfill: every account's keys (the triggers above hold contacts' writers off until this commits).
INSERT INTO contact_field_keys (account_id, key, contacts)
SELECT c.account_id, e.key, count(*)::int
  FROM contacts c CROSS JOIN LATERAL jsonb_object_keys(c.fields) e(key)
 GROUP BY c.account_id, e.key;
