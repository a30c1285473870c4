CREATE TABLE "dev_mail_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"envelope_from" text NOT NULL,
	"envelope_to" text[] NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"raw" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dev_mail_messages_received_at_idx" ON "dev_mail_messages" USING btree ("received_at");