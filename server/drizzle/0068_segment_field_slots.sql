-- An account's first eight custom fields as plain columns of the segment row (ADR 0045): a count's condition on such a
-- field reads `g.field_text_<slot>` (`field_number_<slot>`, `field_day_<slot>`) instead of a jsonb look-up per row
-- and condition, which was most of the worst nesting's time at 1M contacts (six look-ups of one field's text, eight
-- of two typed fields). Each key takes the next free slot the first time a contact of the account carries it and
-- keeps it, so a key with no slot only exists once all eight are taken; the jsonb objects hold those keys only.
CREATE TABLE "segment_field_slots" (
  "account_id" uuid NOT NULL,
  "key" text NOT NULL,
  "slot" smallint NOT NULL,
  CONSTRAINT "segment_field_slots_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id")
    ON DELETE CASCADE,
  CONSTRAINT "segment_field_slots_account_id_key_pk" PRIMARY KEY ("account_id", "key"),
  CONSTRAINT "segment_field_slots_slot_key" UNIQUE ("account_id", "slot"),
  CONSTRAINT "segment_field_slots_slot_check" CHECK ("slot" between 1 and 8)
);
--> statement-breakpoint
ALTER TABLE "segment_engagement"
  ADD COLUMN "field_text_1" text, ADD COLUMN "field_text_2" text, ADD COLUMN "field_text_3" text,
  ADD COLUMN "field_text_4" text, ADD COLUMN "field_text_5" text, ADD COLUMN "field_text_6" text,
  ADD COLUMN "field_text_7" text, ADD COLUMN "field_text_8" text, ADD COLUMN "field_number_1" numeric,
  ADD COLUMN "field_number_2" numeric, ADD COLUMN "field_number_3" numeric, ADD COLUMN "field_number_4" numeric,
  ADD COLUMN "field_number_5" numeric, ADD COLUMN "field_number_6" numeric, ADD COLUMN "field_number_7" numeric,
  ADD COLUMN "field_number_8" numeric, ADD COLUMN "field_day_1" text, ADD COLUMN "field_day_2" text,
  ADD COLUMN "field_day_3" text, ADD COLUMN "field_day_4" text, ADD COLUMN "field_day_5" text,
  ADD COLUMN "field_day_6" text, ADD COLUMN "field_day_7" text, ADD COLUMN "field_day_8" text;
--> statement-breakpoint
-- Gives the account's keys that have no slot the free ones, in key order, while any is free. Writers adding new
-- keys to one account take turns (an advisory lock, class 2612, until their commit), so two of them never give one
-- slot to two keys, nor leave a key without a slot while one is free.
CREATE FUNCTION "segment_field_slots_take"(account uuid, keys text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  taken int;
BEGIN
  PERFORM pg_advisory_xact_lock(2612, hashtext(account::text));
  SELECT count(*) INTO taken FROM segment_field_slots WHERE account_id = account;
  INSERT INTO segment_field_slots (account_id, key, slot)
  SELECT account, w.key, taken + row_number() OVER (ORDER BY w.key)
    FROM (SELECT DISTINCT k AS key FROM unnest(keys) k) w
   WHERE NOT EXISTS (SELECT 1 FROM segment_field_slots s WHERE s.account_id = account AND s.key = w.key)
   ORDER BY w.key
   LIMIT greatest(8 - taken, 0);
END $$;
--> statement-breakpoint
-- The keys of the contacts a statement wrote that have no slot yet, given one where the account has one free. The
-- accounts whose slots are all taken are skipped before any lock: their writers never wait on each other here.
CREATE FUNCTION "segment_field_slots_for"(accounts uuid[], fields jsonb[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM segment_field_slots_take(w.account_id, array_agg(w.key))
     FROM (SELECT DISTINCT x.account_id, k.key
             FROM unnest(accounts, fields) x(account_id, fields) CROSS JOIN LATERAL jsonb_object_keys(x.fields) k(key)
            WHERE x.fields <> '{}'::jsonb) w
    WHERE NOT EXISTS (SELECT 1 FROM segment_field_slots s WHERE s.account_id = w.account_id AND s.key = w.key)
      AND (SELECT count(*) FROM segment_field_slots s WHERE s.account_id = w.account_id) < 8
    GROUP BY w.account_id
    ORDER BY w.account_id;
END $$;
--> statement-breakpoint
-- The account's key in each slot (null where free), as an array indexed by slot.
CREATE FUNCTION "segment_field_slot_keys"(account uuid) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT array[max(key) FILTER (WHERE slot = 1), max(key) FILTER (WHERE slot = 2), max(key) FILTER (WHERE slot = 3),
               max(key) FILTER (WHERE slot = 4), max(key) FILTER (WHERE slot = 5), max(key) FILTER (WHERE slot = 6),
               max(key) FILTER (WHERE slot = 7), max(key) FILTER (WHERE slot = 8)]
    FROM segment_field_slots WHERE account_id = account
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "segment_rows_insert"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  PERFORM segment_field_slots_for(array_agg(n.account_id), array_agg(n.fields)) FROM new_contacts n;
  -- Materialized: the statement's accounts' slot keys are read once, not once per contact.
  WITH s AS MATERIALIZED (SELECT a.account_id, segment_field_slot_keys(a.account_id) AS keys
                            FROM (SELECT DISTINCT account_id FROM new_contacts) a)
  INSERT INTO segment_engagement AS g (account_id, contact_id, contact_status, contact_created_at, email_lower,
                                       name_lower, field_texts, field_numbers, field_days, field_text_1,
                                       field_text_2, field_text_3, field_text_4, field_text_5, field_text_6,
                                       field_text_7, field_text_8, field_number_1, field_number_2, field_number_3,
                                       field_number_4, field_number_5, field_number_6, field_number_7,
                                       field_number_8, field_day_1, field_day_2, field_day_3, field_day_4,
                                       field_day_5, field_day_6, field_day_7, field_day_8)
  SELECT n.account_id, n.id, n.status, n.created_at, lower(n.email), lower(coalesce(n.name, '')), f.texts - s.keys,
         f.numbers - s.keys, f.days - s.keys, f.texts ->> s.keys[1], f.texts ->> s.keys[2], f.texts ->> s.keys[3],
         f.texts ->> s.keys[4], f.texts ->> s.keys[5], f.texts ->> s.keys[6], f.texts ->> s.keys[7],
         f.texts ->> s.keys[8], (f.numbers -> s.keys[1])::numeric, (f.numbers -> s.keys[2])::numeric,
         (f.numbers -> s.keys[3])::numeric, (f.numbers -> s.keys[4])::numeric, (f.numbers -> s.keys[5])::numeric,
         (f.numbers -> s.keys[6])::numeric, (f.numbers -> s.keys[7])::numeric, (f.numbers -> s.keys[8])::numeric,
         f.days ->> s.keys[1], f.days ->> s.keys[2], f.days ->> s.keys[3], f.days ->> s.keys[4],
         f.days ->> s.keys[5], f.days ->> s.keys[6], f.days ->> s.keys[7], f.days ->> s.keys[8]
    FROM new_contacts n
    JOIN s ON s.account_id = n.account_id
    CROSS JOIN LATERAL segment_field_columns(n.fields) f
   ORDER BY n.account_id, n.id
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
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "segment_rows_update"() RETURNS trigger LANGUAGE plpgsql
  SET jit = off SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  DELETE FROM segment_engagement g
   USING old_contacts o JOIN new_contacts n ON n.id = o.id
   WHERE n.account_id <> o.account_id AND g.account_id = o.account_id AND g.contact_id = o.id;
  PERFORM segment_field_slots_for(array_agg(n.account_id), array_agg(n.fields)) FROM new_contacts n;
  WITH s AS MATERIALIZED (SELECT a.account_id, segment_field_slot_keys(a.account_id) AS keys
                            FROM (SELECT DISTINCT account_id FROM new_contacts) a)
  INSERT INTO segment_engagement AS g (account_id, contact_id, contact_status, contact_created_at, email_lower,
                                       name_lower, field_texts, field_numbers, field_days, field_text_1,
                                       field_text_2, field_text_3, field_text_4, field_text_5, field_text_6,
                                       field_text_7, field_text_8, field_number_1, field_number_2, field_number_3,
                                       field_number_4, field_number_5, field_number_6, field_number_7,
                                       field_number_8, field_day_1, field_day_2, field_day_3, field_day_4,
                                       field_day_5, field_day_6, field_day_7, field_day_8, list_ids)
  SELECT n.account_id, n.id, n.status, n.created_at, lower(n.email), lower(coalesce(n.name, '')), f.texts - s.keys,
         f.numbers - s.keys, f.days - s.keys, f.texts ->> s.keys[1], f.texts ->> s.keys[2], f.texts ->> s.keys[3],
         f.texts ->> s.keys[4], f.texts ->> s.keys[5], f.texts ->> s.keys[6], f.texts ->> s.keys[7],
         f.texts ->> s.keys[8], (f.numbers -> s.keys[1])::numeric, (f.numbers -> s.keys[2])::numeric,
         (f.numbers -> s.keys[3])::numeric, (f.numbers -> s.keys[4])::numeric, (f.numbers -> s.keys[5])::numeric,
         (f.numbers -> s.keys[6])::numeric, (f.numbers -> s.keys[7])::numeric, (f.numbers -> s.keys[8])::numeric,
         f.days ->> s.keys[1], f.days ->> s.keys[2], f.days ->> s.keys[3], f.days ->> s.keys[4],
         f.days ->> s.keys[5], f.days ->> s.keys[6], f.days ->> s.keys[7], f.days ->> s.keys[8],
         -- Read only for a contact moved to another account (a new row); a conflict keeps the row's lists.
         CASE WHEN n.account_id <> o.account_id
              THEN coalesce((SELECT array_agg(lm.list_id ORDER BY lm.list_id) FILTER (WHERE lm.status = 'subscribed')
                               FROM list_memberships lm WHERE lm.contact_id = n.id), '{}'::uuid[])
              ELSE '{}'::uuid[] END
    FROM new_contacts n JOIN old_contacts o ON o.id = n.id
    JOIN s ON s.account_id = n.account_id
    CROSS JOIN LATERAL segment_field_columns(n.fields) f
   WHERE (n.account_id, n.status, n.created_at, n.email, n.name, n.fields)
         IS DISTINCT FROM (o.account_id, o.status, o.created_at, o.email, o.name, o.fields)
   ORDER BY n.account_id, n.id
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
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Backfill: each account's keys, the most carried first, take the slots; their texts move to the columns (the
-- triggers above hold contacts' writers off until this commits).
INSERT INTO segment_field_slots (account_id, key, slot)
SELECT account_id, key, rank
  FROM (SELECT account_id, key, row_number() OVER (PARTITION BY account_id ORDER BY count(*) DESC, key) AS rank
          FROM segment_engagement, jsonb_object_keys(field_texts) key
         GROUP BY account_id, key) k
 WHERE rank <= 8;
--> statement-breakpoint
UPDATE segment_engagement g
   SET field_texts = g.field_texts - s.keys, field_numbers = g.field_numbers - s.keys,
       field_days = g.field_days - s.keys, field_text_1 = g.field_texts ->> s.keys[1],
       field_text_2 = g.field_texts ->> s.keys[2], field_text_3 = g.field_texts ->> s.keys[3],
       field_text_4 = g.field_texts ->> s.keys[4], field_text_5 = g.field_texts ->> s.keys[5],
       field_text_6 = g.field_texts ->> s.keys[6], field_text_7 = g.field_texts ->> s.keys[7],
       field_text_8 = g.field_texts ->> s.keys[8], field_number_1 = (g.field_numbers -> s.keys[1])::numeric,
       field_number_2 = (g.field_numbers -> s.keys[2])::numeric,
       field_number_3 = (g.field_numbers -> s.keys[3])::numeric,
       field_number_4 = (g.field_numbers -> s.keys[4])::numeric,
       field_number_5 = (g.field_numbers -> s.keys[5])::numeric,
       field_number_6 = (g.field_numbers -> s.keys[6])::numeric,
       field_number_7 = (g.field_numbers -> s.keys[7])::numeric,
       field_number_8 = (g.field_numbers -> s.keys[8])::numeric, field_day_1 = g.field_days ->> s.keys[1],
       field_day_2 = g.field_days ->> s.keys[2], field_day_3 = g.field_days ->> s.keys[3],
       field_day_4 = g.field_days ->> s.keys[4], field_day_5 = g.field_days ->> s.keys[5],
       field_day_6 = g.field_days ->> s.keys[6], field_day_7 = g.field_days ->> s.keys[7],
       field_day_8 = g.field_days ->> s.keys[8]
  FROM (SELECT account_id, segment_field_slot_keys(account_id) AS keys
          FROM segment_field_slots GROUP BY account_id) s
 WHERE s.account_id = g.account_id AND g.field_texts <> '{}'::jsonb;
