CREATE TABLE "admin_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_user_id" text NOT NULL,
	"operator_email" text,
	"action" text NOT NULL,
	"account_id" uuid,
	"target_id" text,
	"reason" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" uuid NOT NULL,
	"amount_millis" bigint NOT NULL,
	"kind" text NOT NULL,
	"campaign_id" uuid,
	"topup_id" uuid,
	"operator_user_id" text,
	"email_count" integer,
	"price_millis" integer,
	"description" text NOT NULL,
	"balance_after_millis" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "ledger_entries_seq_unique" UNIQUE("seq"),
	CONSTRAINT "ledger_entries_balance_after_not_negative" CHECK ("ledger_entries"."balance_after_millis" >= 0)
);
--> statement-breakpoint
CREATE TABLE "topups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"amount_millis" bigint NOT NULL,
	"txid" text NOT NULL,
	"br_code" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider" text,
	"provider_payment_id" text,
	"review_reason" text,
	"provider_report" jsonb,
	"created_by_user_id" text,
	"confirmed_by_user_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "topups_txid_unique" UNIQUE("txid"),
	CONSTRAINT "topups_provider_payment_id_unique" UNIQUE("provider_payment_id"),
	CONSTRAINT "topups_amount_positive" CHECK ("topups"."amount_millis" > 0),
	CONSTRAINT "topups_txid_format" CHECK ("topups"."txid" ~ '^[A-Za-z0-9]{1,25}$')
);
--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_topup_id_topups_id_fk" FOREIGN KEY ("topup_id") REFERENCES "public"."topups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topups" ADD CONSTRAINT "topups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_at_idx" ON "admin_audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_seq_idx" ON "ledger_entries" USING btree ("account_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_created_at_idx" ON "ledger_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_reservation_per_campaign" ON "ledger_entries" USING btree ("campaign_id") WHERE "ledger_entries"."kind" = 'reservation';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_send_per_campaign" ON "ledger_entries" USING btree ("campaign_id") WHERE "ledger_entries"."kind" = 'send';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_release_per_campaign" ON "ledger_entries" USING btree ("campaign_id") WHERE "ledger_entries"."kind" = 'release';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_credit_per_topup" ON "ledger_entries" USING btree ("topup_id") WHERE "ledger_entries"."kind" = 'topup';--> statement-breakpoint
CREATE INDEX "topups_account_id_created_at_idx" ON "topups" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "topups_status_idx" ON "topups" USING btree ("status");