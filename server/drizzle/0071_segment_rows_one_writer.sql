-- The contacts' segment rows (ADR 0043, 0045), written by one function for both triggers.
--
-- An UPDATE of many contacts in one statement was quadratic: 0068's update trigger paired its old and new rows
-- (the transition tables) by a join, under the function's settings that turn hash and merge joins off so that a
-- real table is probed by key — so each new row was compared with every old one: with this trigger alone, 2,000
-- contacts in 2.2–2.4 s, 8,000 in 36–38 s (PostgreSQL 15, docs/benchmarks.md, session 31). Here the pairing touches only the transition tables, joined
-- with nested loops off (a hash join whatever the plan cached from the statement's first, small call); the tables
-- are probed by key in segment_rows_write, whose settings are its own.
--
-- The two triggers also carried the same upsert, its columns named three times in each; segment_rows_write names
-- each once. A contact moved to another account leaves its row (and its engagement) in the old one, and its new
-- row reads its lists.
--
-- `moved_from[i]`: the account `changed[i]` was moved from, or null (a new contact's array is null).
CREATE FUNCTION "segment_rows_write"(changed contacts[], moved_from uuid[]) RETURNS void LANGUAGE plpgsql
  SET jit = off SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
  SET enable_nestloop = on AS $$
BEGIN
  DELETE FROM segment_engagement g
   USING unnest(changed) WITH ORDINALITY AS c
   WHERE moved_from[c.ordinality] IS NOT NULL AND g.account_id = moved_from[c.ordinality] AND g.contact_id = c.id;
  PERFORM segment_field_slots_for(array_agg(c.account_id), array_agg(c.fields)) FROM unnest(changed) c;
  -- Materialized: the accounts' slot keys are read once, not once per contact.
  WITH c AS (SELECT * FROM unnest(changed) WITH ORDINALITY AS c),
       s AS MATERIALIZED (SELECT a.account_id, segment_field_slot_keys(a.account_id) AS keys
                            FROM (SELECT DISTINCT account_id FROM c) a)
  INSERT INTO segment_engagement AS g (account_id, contact_id, contact_status, contact_created_at, email_lower,
                                       name_lower, field_texts, field_numbers, field_days, field_text_1,
                                       field_text_2, field_text_3, field_text_4, field_text_5, field_text_6,
                                       field_text_7, field_text_8, field_number_1, field_number_2, field_number_3,
                                       field_number_4, field_number_5, field_number_6, field_number_7,
                                       field_number_8, field_day_1, field_day_2, field_day_3, field_day_4,
                                       field_day_5, field_day_6, field_day_7, field_day_8, list_ids)
  SELECT c.account_id, c.id, c.status, c.created_at, lower(c.email), lower(coalesce(c.name, '')), f.texts - s.keys,
         f.numbers - s.keys, f.days - s.keys, f.texts ->> s.keys[1], f.texts ->> s.keys[2], f.texts ->> s.keys[3],
         f.texts ->> s.keys[4], f.texts ->> s.keys[5], f.texts ->> s.keys[6], f.texts ->> s.keys[7],
         f.texts ->> s.keys[8], (f.numbers -> s.keys[1])::numeric, (f.numbers -> s.keys[2])::numeric,
         (f.numbers -> s.keys[3])::numeric, (f.numbers -> s.keys[4])::numeric, (f.numbers -> s.keys[5])::numeric,
         (f.numbers -> s.keys[6])::numeric, (f.numbers -> s.keys[7])::numeric, (f.numbers -> s.keys[8])::numeric,
         f.days ->> s.keys[1], f.days ->> s.keys[2], f.days ->> s.keys[3], f.days ->> s.keys[4],
         f.days ->> s.keys[5], f.days ->> s.keys[6], f.days ->> s.keys[7], f.days ->> s.keys[8],
         -- Read only for a contact moved from another account (a new row here); a new contact is on no list yet,
         -- and a conflict keeps the row's lists.
         CASE WHEN moved_from[c.ordinality] IS NOT NULL
              THEN coalesce((SELECT array_agg(lm.list_id ORDER BY lm.list_id) FILTER (WHERE lm.status = 'subscribed')
                               FROM list_memberships lm WHERE lm.contact_id = c.id), '{}'::uuid[])
              ELSE '{}'::uuid[] END
    FROM c
    JOIN s ON s.account_id = c.account_id
    CROSS JOIN LATERAL segment_field_columns(c.fields) f
   ORDER BY c.account_id, c.id
  ON CONFLICT (account_id, contact_id) DO UPDATE SET
    contact_status = excluded.contact_status, contact_created_at = excluded.contact_created_at,
    email_lower = excluded.email_lower, name_lower = excluded.name_lower, field_texts = excluded.field_texts,
    field_numbers = excluded.field_numbers, field_days = excluded.field_days, field_text_1 = excluded.field_text_1,
    field_text_2 = excluded.field_text_2, field_text_3 = excluded.field_text_3, field_text_4 = excluded.field_text_4,
    field_text_5 = excluded.field_text_5, field_text_6 = excluded.field_text_6, field_text_7 = excluded.field_text_7,
    field_text_8 = excluded.field_text_8, field_number_1 = excluded.field_number_1,
    field_number_2 = excluded.field_number_2, field_number_3 = excluded.field_number_3,
    field_number_4 = excluded.field_number_4, field_number_5 = excluded.field_number_5,
    field_number_6 = excluded.field_number_6, field_number_7 = excluded.field_number_7,
    field_number_8 = excluded.field_number_8, field_day_1 = excluded.field_day_1, field_day_2 = excluded.field_day_2,
    field_day_3 = excluded.field_day_3, field_day_4 = excluded.field_day_4, field_day_5 = excluded.field_day_5,
    field_day_6 = excluded.field_day_6, field_day_7 = excluded.field_day_7, field_day_8 = excluded.field_day_8;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "segment_rows_insert"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM segment_rows_write(array_agg(n::contacts), NULL) FROM new_contacts n HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The contacts whose row changes, paired with their old version by a hash join (see the top).
CREATE OR REPLACE FUNCTION "segment_rows_update"() RETURNS trigger LANGUAGE plpgsql
  SET jit = off SET enable_nestloop = off AS $$
BEGIN
  PERFORM segment_rows_write(array_agg(n::contacts),
                             array_agg(CASE WHEN n.account_id <> o.account_id THEN o.account_id END))
     FROM new_contacts n JOIN old_contacts o ON o.id = n.id
    WHERE (n.account_id, n.status, n.created_at, n.email, n.name, n.fields)
          IS DISTINCT FROM (o.account_id, o.status, o.created_at, o.email, o.name, o.fields)
   HAVING count(*) > 0;
  RETURN NULL;
END $$;
