CREATE TABLE "topup_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"topup_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"request_key" uuid NOT NULL,
	"refund_code" text NOT NULL,
	"amount_millis" bigint NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"provider_refund_id" text,
	"failure_reason" text,
	"reason" text NOT NULL,
	"operator_user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "topup_refunds_request_key_unique" UNIQUE("request_key"),
	CONSTRAINT "topup_refunds_refund_code_unique" UNIQUE("refund_code"),
	CONSTRAINT "topup_refunds_amount_positive" CHECK ("topup_refunds"."amount_millis" > 0)
);
--> statement-breakpoint
ALTER TABLE "topups" DROP CONSTRAINT "topups_txid_format";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "topups" ADD COLUMN "charge_provider" text;--> statement-breakpoint
ALTER TABLE "topups" ADD COLUMN "provider_charge_id" text;--> statement-breakpoint
ALTER TABLE "topups" ADD COLUMN "refunded_millis" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "topup_refunds" ADD CONSTRAINT "topup_refunds_topup_id_topups_id_fk" FOREIGN KEY ("topup_id") REFERENCES "public"."topups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topup_refunds" ADD CONSTRAINT "topup_refunds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "topup_refunds_topup_id_idx" ON "topup_refunds" USING btree ("topup_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_debit_per_refund" ON "ledger_entries" USING btree ("refund_id") WHERE "ledger_entries"."kind" = 'refund';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_return_per_refund" ON "ledger_entries" USING btree ("refund_id") WHERE "ledger_entries"."kind" = 'adjustment';--> statement-breakpoint
CREATE UNIQUE INDEX "topups_provider_charge_unique" ON "topups" USING btree ("charge_provider","provider_charge_id");--> statement-breakpoint
ALTER TABLE "topups" ADD CONSTRAINT "topups_refunded_within_amount" CHECK ("topups"."refunded_millis" >= 0 AND "topups"."refunded_millis" <= "topups"."amount_millis");--> statement-breakpoint
ALTER TABLE "topups" ADD CONSTRAINT "topups_txid_format" CHECK ("topups"."txid" ~ '^[A-Za-z0-9]{1,35}$');