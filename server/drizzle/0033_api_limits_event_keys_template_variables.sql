-- Rate-limit windows move from per key to per account: the counters are transient (one window), so they are dropped.
DELETE FROM "api_rate_limits";--> statement-breakpoint
ALTER TABLE "api_rate_limits" DROP CONSTRAINT "api_rate_limits_api_key_id_window_start_pk";--> statement-breakpoint
ALTER TABLE "api_rate_limits" DROP COLUMN "api_key_id";--> statement-breakpoint
ALTER TABLE "api_rate_limits" ADD COLUMN "account_id" uuid NOT NULL;--> statement-breakpoint
ALTER TABLE "api_rate_limits" ADD CONSTRAINT "api_rate_limits_account_id_window_start_pk" PRIMARY KEY("account_id","window_start");--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "event_key_field" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "variables" text[] DEFAULT '{}'::text[] NOT NULL;
