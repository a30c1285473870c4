-- The other two triggers on an UPDATE of contacts that pair its old and new rows (0050/0057's field values and
-- keys, 0058's list counts), done as 0071 does the segment rows. Their joins of the two transition tables ran with
-- the plan PostgreSQL cached at the trigger's first call in the connection: after a one-contact update (the usual
-- first), each new row was compared with every old one, so a later statement of 1,000 contacts took 0.7 s instead
-- of 0.14 s, and one of 8,000 spent 36 s in the field values' trigger alone (docs/benchmarks.md, session 31). The
-- pairing now runs with nested loops off — a hash join, whatever plan is cached — and touches only the transition
-- tables; the functions it hands the changed contacts to probe the tables by key, with settings of their own.
--
-- Contacts whose fields (or account) changed: their typed values and the account's key counts, from the old
-- version (`previous`) to the new (`changed`).
CREATE FUNCTION "contact_fields_replace"(changed contacts[], previous contacts[]) RETURNS void LANGUAGE plpgsql
  SET jit = off SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
  SET enable_nestloop = on AS $$
BEGIN
  DELETE FROM contact_field_values v USING unnest(previous) o WHERE v.contact_id = o.id;
  INSERT INTO contact_field_values (contact_id, field, account_id, num, day)
  SELECT f.id, f.key, f.account_id, f.num, f.day
    FROM (SELECT n.id, n.account_id, e.key, contact_field_number(e.value) AS num, contact_field_day(e.value) AS day
            FROM unnest(changed) n CROSS JOIN LATERAL jsonb_each_text(n.fields) e) f
   WHERE f.num IS NOT NULL OR f.day IS NOT NULL;
  INSERT INTO contact_field_keys AS k (account_id, key, contacts)
  SELECT d.account_id, d.key, sum(d.delta)::int
    FROM (SELECT n.account_id, e.key, 1 AS delta
            FROM unnest(changed) n CROSS JOIN LATERAL jsonb_object_keys(n.fields) e(key)
          UNION ALL
          SELECT o.account_id, e.key, -1
            FROM unnest(previous) o CROSS JOIN LATERAL jsonb_object_keys(o.fields) e(key)) d
   GROUP BY d.account_id, d.key HAVING sum(d.delta) <> 0 ORDER BY d.account_id, d.key
  ON CONFLICT (account_id, key) DO UPDATE SET contacts = k.contacts + excluded.contacts;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "contact_field_values_update"() RETURNS trigger LANGUAGE plpgsql
  SET jit = off SET enable_nestloop = off AS $$
BEGIN
  PERFORM contact_fields_replace(array_agg(n::contacts), array_agg(o::contacts))
     FROM new_contacts n JOIN old_contacts o ON o.id = n.id
    WHERE (n.account_id, n.fields) IS DISTINCT FROM (o.account_id, o.fields)
   HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Contacts whose status crossed "subscribed" (`deltas[i]` +1 or -1): every list `ids[i]` is a subscribed member of.
CREATE FUNCTION "list_counts_status_moves"(ids uuid[], deltas integer[]) RETURNS void LANGUAGE plpgsql
  SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off SET enable_nestloop = on AS $$
BEGIN
  INSERT INTO list_count_deltas (list_id, members, subscribed)
  SELECT m.list_id, 0, sum(ch.delta)::int
    FROM unnest(ids, deltas) AS ch(id, delta)
    CROSS JOIN LATERAL (SELECT m.list_id FROM list_memberships m
                         WHERE m.contact_id = ch.id AND m.status = 'subscribed') m
   GROUP BY m.list_id
  HAVING sum(ch.delta) <> 0;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "list_counts_contacts_update"() RETURNS trigger LANGUAGE plpgsql
  SET enable_nestloop = off AS $$
BEGIN
  PERFORM list_counts_status_moves(array_agg(n.id), array_agg(CASE WHEN n.status = 'subscribed' THEN 1 ELSE -1 END))
     FROM new_contacts n JOIN old_contacts o ON o.id = n.id
    WHERE (n.status = 'subscribed') <> (o.status = 'subscribed')
   HAVING count(*) > 0;
  RETURN NULL;
END $$;
