CREATE TABLE "transactional_messages" (
	"message_id" bigint PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"from_email" text NOT NULL,
	"from_name" text,
	"reply_to" text,
	"to_name" text,
	"category" text NOT NULL,
	"track_opens" boolean NOT NULL,
	"track_clicks" boolean NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"template_id" uuid,
	"tags" text[],
	"cost_millis" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "kind" text DEFAULT 'campaign' NOT NULL;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD CONSTRAINT "transactional_messages_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD CONSTRAINT "transactional_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_transactional_stream_uq" ON "campaigns" USING btree ("created_by") WHERE kind = 'transactional';