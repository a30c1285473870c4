CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uuid" uuid NOT NULL,
	"owner_user_id" text NOT NULL,
	"name" text NOT NULL,
	"legal_name" text,
	"tax_id" text,
	"address" text,
	"time_zone" text DEFAULT 'America/Sao_Paulo' NOT NULL,
	"default_from_name" text,
	"default_from_email" text,
	"price_millis" integer DEFAULT 5 NOT NULL,
	"balance_millis" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "accounts_balance_not_negative" CHECK ("accounts"."balance_millis" >= 0),
	CONSTRAINT "accounts_price_not_negative" CHECK ("accounts"."price_millis" >= 0)
);
--> statement-breakpoint
CREATE INDEX "accounts_owner_user_id_idx" ON "accounts" USING btree ("owner_user_id");