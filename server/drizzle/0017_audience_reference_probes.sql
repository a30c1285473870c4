-- The reference checks of 0016 probe the referenced tables by their primary keys, whatever the statistics say.
-- Written as joins, their plans depended on the statistics: on a growing table whose statistics predate a bulk
-- import (autovacuum off or not yet run), the membership check hashed a sequential scan of every contact for
-- each 10,000-row batch, making a 1M-row import quadratic. Now: the distinct account and list ids as an array
-- (`id = ANY (…)`, an index scan), and one LATERAL … LIMIT 1 probe of contacts_pkey per membership row.
CREATE OR REPLACE FUNCTION "contacts_check_account"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  got int;
BEGIN
  SELECT array_agg(DISTINCT account_id) INTO ids FROM new_contacts;
  PERFORM 1 FROM accounts a WHERE a.id = ANY (ids) FOR KEY SHARE OF a;
  GET DIAGNOSTICS got = ROW_COUNT;
  IF got < coalesce(cardinality(ids), 0) THEN
    RAISE EXCEPTION 'insert or update on table "contacts" violates foreign key constraint "contacts_account_id_accounts_id_fk"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'contacts', CONSTRAINT = 'contacts_account_id_accounts_id_fk';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
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
  -- locks them (a contact deleted meanwhile by a committed transaction is not locked: the insert fails).
  SELECT count(*), array_agg(DISTINCT c.id) FILTER (WHERE NOT c.own) INTO got, others
    FROM new_memberships m
    CROSS JOIN LATERAL (SELECT c.id, c.xmin = me AS own FROM contacts c WHERE c.id = m.contact_id LIMIT 1) c;
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
