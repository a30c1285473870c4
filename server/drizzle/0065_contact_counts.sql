-- How many contacts an account has, as delta rows kept by triggers on contacts (the pattern of 0058's list counts,
-- ADR 0041; ADR 0042 amendment, session 23): a segment count "outside a set" ("nunca abriu", "não está em VIP") read
-- every contact of the account to count them. Rows, not a counter: an import's batches in flight never wait for each
-- other's commits. The triggers are created before the backfill, in this transaction: writers of contacts wait for
-- its commit, so nothing is counted twice or missed.
CREATE TABLE "contact_count_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"contacts" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_count_deltas" ADD CONSTRAINT "contact_count_deltas_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_count_deltas_account_idx" ON "contact_count_deltas" USING btree ("account_id");
--> statement-breakpoint
CREATE FUNCTION "contact_counts_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_count_deltas (account_id, contacts)
  SELECT account_id, count(*) FROM new_contacts GROUP BY account_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A deleted account's contacts go by cascade, after the account row, and its rows with it: nothing is appended for
-- an account that is gone (the foreign key would refuse it).
CREATE FUNCTION "contact_counts_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_count_deltas (account_id, contacts)
  SELECT o.account_id, -count(*) FROM old_contacts o
   WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = o.account_id)
   GROUP BY o.account_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A contact moved to another account (nothing does it today; the reference triggers allow it): one row each side.
CREATE FUNCTION "contact_counts_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_count_deltas (account_id, contacts) VALUES (NEW.account_id, 1);
  INSERT INTO contact_count_deltas (account_id, contacts)
  SELECT OLD.account_id, -1 WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = OLD.account_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_count_insert" AFTER INSERT ON "contacts"
  REFERENCING NEW TABLE AS new_contacts FOR EACH STATEMENT EXECUTE FUNCTION "contact_counts_insert"();
--> statement-breakpoint
CREATE TRIGGER "contacts_count_delete" AFTER DELETE ON "contacts"
  REFERENCING OLD TABLE AS old_contacts FOR EACH STATEMENT EXECUTE FUNCTION "contact_counts_delete"();
--> statement-breakpoint
CREATE TRIGGER "contacts_count_move" AFTER UPDATE OF "account_id" ON "contacts"
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION "contact_counts_move"();
--> statement-breakpoint
INSERT INTO contact_count_deltas (account_id, contacts)
SELECT account_id, count(*) FROM contacts GROUP BY account_id;
