CREATE TABLE "privacy_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"email" text,
	"email_hash" text NOT NULL,
	"request_ip" text,
	"confirm_ip" text,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "public_rate_limits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "public_rate_limits_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "subscription_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"list_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"form_id" text NOT NULL,
	"consent_text" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"opt_in" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "contacts_account_email_prefix_idx";--> statement-breakpoint
DROP INDEX "contacts_account_email_uq";--> statement-breakpoint
ALTER TABLE "subscription_consents" ADD CONSTRAINT "subscription_consents_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_consents" ADD CONSTRAINT "subscription_consents_list_id_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_consents" ADD CONSTRAINT "subscription_consents_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "privacy_requests_email_hash_idx" ON "privacy_requests" USING btree ("email_hash");--> statement-breakpoint
CREATE INDEX "subscription_consents_contact_idx" ON "subscription_consents" USING btree ("contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_account_email_uq" ON "contacts" USING btree ("account_id","email" text_pattern_ops);