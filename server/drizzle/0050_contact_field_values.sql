-- ADR 0039: the custom fields that read as a number or a date, typed once per write (contact_field_values), so
-- a segment's number/date condition reads an index instead of parsing every contact's field on every count.
CREATE TABLE "contact_field_values" (
	"contact_id" uuid NOT NULL,
	"field" text NOT NULL,
	"account_id" uuid NOT NULL,
	"num" numeric,
	"day" text,
	CONSTRAINT "contact_field_values_contact_id_field_pk" PRIMARY KEY("contact_id","field")
);
--> statement-breakpoint
-- A custom field's text as a number (comma or dot decimals), null when it is not one: `-?` then 1–15 digits then
-- optionally `.` and 1–12 digits — the rule the segment conditions applied per count before (segment-field-shapes
-- test), checked without a regular expression: the characters left once the digits are deleted say the form.
-- One SELECT of one expression, no FROM, so the planner inlines it (called as a function it cost 5× more).
CREATE FUNCTION "contact_field_number"(x text) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN (CASE translate(replace(btrim(x), ',', '.'), '0123456789', '')
                      WHEN '' THEN length(replace(btrim(x), ',', '.')) BETWEEN 1 AND 15
                      WHEN '-' THEN starts_with(replace(btrim(x), ',', '.'), '-')
                                    AND length(replace(btrim(x), ',', '.')) BETWEEN 2 AND 16
                      WHEN '.' THEN strpos(replace(btrim(x), ',', '.'), '.') BETWEEN 2 AND 16
                                    AND length(replace(btrim(x), ',', '.')) - strpos(replace(btrim(x), ',', '.'), '.') BETWEEN 1 AND 12
                      WHEN '-.' THEN starts_with(replace(btrim(x), ',', '.'), '-')
                                     AND strpos(replace(btrim(x), ',', '.'), '.') BETWEEN 3 AND 17
                                     AND length(replace(btrim(x), ',', '.')) - strpos(replace(btrim(x), ',', '.'), '.') BETWEEN 1 AND 12
                      ELSE false END)
              THEN replace(btrim(x), ',', '.')::numeric END
$$;
--> statement-breakpoint
-- A custom field's text as AAAA-MM-DD when it is written AAAA-MM-DD[…] or DD/MM/AAAA; null otherwise (kept as text,
-- not a date: "2001-13-45" is compared as written, as the conditions always did). Inlined like the one above.
CREATE FUNCTION "contact_field_day"(x text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN btrim(x) ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' THEN substr(btrim(x), 1, 10)
              WHEN btrim(x) ~ '^[0-9]{2}/[0-9]{2}/[0-9]{4}$'
                THEN substr(btrim(x), 7, 4) || '-' || substr(btrim(x), 4, 2) || '-' || substr(btrim(x), 1, 2)
         END
$$;
--> statement-breakpoint
-- Statement-level triggers on contacts keep the projection on every write path (import batches, the API, the web
-- edit, erasure, account deletion): inserted contacts add their rows; an update whose fields changed replaces the
-- contact's rows; a deleted contact's rows go.
-- JIT off: jsonb_each_text's fixed estimate (100 keys a contact) makes a 2,000-contact batch look costly enough to
-- compile (~70 ms a batch for a statement that runs in a few ms of CPU).
CREATE FUNCTION "contact_field_values_insert"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO contact_field_values (contact_id, field, account_id, num, day)
  SELECT f.id, f.key, f.account_id, f.num, f.day
    FROM (SELECT n.id, n.account_id, e.key, contact_field_number(e.value) AS num, contact_field_day(e.value) AS day
            FROM new_contacts n CROSS JOIN LATERAL jsonb_each_text(n.fields) e) f
   WHERE f.num IS NOT NULL OR f.day IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "contact_field_values_update"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
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
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "contact_field_values_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM contact_field_values v USING old_contacts o WHERE v.contact_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_field_values_insert" AFTER INSERT ON "contacts"
  REFERENCING NEW TABLE AS new_contacts FOR EACH STATEMENT EXECUTE FUNCTION "contact_field_values_insert"();
--> statement-breakpoint
CREATE TRIGGER "contacts_field_values_update" AFTER UPDATE ON "contacts"
  REFERENCING OLD TABLE AS old_contacts NEW TABLE AS new_contacts FOR EACH STATEMENT
  EXECUTE FUNCTION "contact_field_values_update"();
--> statement-breakpoint
CREATE TRIGGER "contacts_field_values_delete" AFTER DELETE ON "contacts"
  REFERENCING OLD TABLE AS old_contacts FOR EACH STATEMENT EXECUTE FUNCTION "contact_field_values_delete"();
--> statement-breakpoint
-- Backfill: every contact's typed fields (the triggers above hold contacts' writers off until this commits),
-- then the index, built once over the loaded table.
INSERT INTO contact_field_values (contact_id, field, account_id, num, day)
SELECT f.id, f.key, f.account_id, f.num, f.day
  FROM (SELECT c.id, c.account_id, e.key, contact_field_number(e.value) AS num, contact_field_day(e.value) AS day
          FROM contacts c CROSS JOIN LATERAL jsonb_each_text(c.fields) e) f
 WHERE f.num IS NOT NULL OR f.day IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "contact_field_values_lookup_idx" ON "contact_field_values" USING btree ("account_id","field","num","day","contact_id");
