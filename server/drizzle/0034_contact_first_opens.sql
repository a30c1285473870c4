CREATE TABLE "contact_first_opens" (
	"account_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"first_opened_at" timestamp with time zone NOT NULL,
	CONSTRAINT "contact_first_opens_account_id_contact_id_pk" PRIMARY KEY("account_id","contact_id")
);
--> statement-breakpoint
ALTER TABLE "contact_first_opens" ADD CONSTRAINT "contact_first_opens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every insert into message_events (the tracking recorder's batches, and any other writer) records the contacts
-- whose first human open it carries, once per statement: a set the size of the account's openers for segments'
-- "nunca abriu", instead of a scan of every open event the account ever had.
CREATE FUNCTION "contact_first_opens_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_first_opens (account_id, contact_id, first_opened_at)
  SELECT account_id, contact_id, min(created_at) FROM new_events
   WHERE kind = 'open' AND NOT machine AND contact_id IS NOT NULL
   GROUP BY account_id, contact_id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "message_events_first_opens" AFTER INSERT ON "message_events" REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION "contact_first_opens_record"();
--> statement-breakpoint
INSERT INTO contact_first_opens (account_id, contact_id, first_opened_at)
SELECT account_id, contact_id, min(created_at) FROM message_events
 WHERE kind = 'open' AND NOT machine AND contact_id IS NOT NULL
 GROUP BY account_id, contact_id;
