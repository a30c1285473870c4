CREATE TABLE "campaign_sends" (
	"campaign_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"recipients" integer NOT NULL,
	"reserved_millis" bigint DEFAULT 0 NOT NULL,
	"paused_reason" text,
	"consecutive_errors" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"charged_millis" bigint
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"contact_id" uuid,
	"email" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"smtp_code" integer,
	"enhanced_code" text,
	"response" text,
	"policy" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD CONSTRAINT "campaign_sends_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD CONSTRAINT "campaign_sends_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_claim_idx" ON "messages" USING btree ("campaign_id","status","next_attempt_at","id");--> statement-breakpoint
CREATE INDEX "messages_in_flight_idx" ON "messages" USING btree ("claimed_at") WHERE status = 'sending';--> statement-breakpoint
CREATE UNIQUE INDEX "messages_token_idx" ON "messages" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_campaign_contact_idx" ON "messages" USING btree ("campaign_id","contact_id");