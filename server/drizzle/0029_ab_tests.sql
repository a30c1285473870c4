ALTER TABLE "campaigns" ADD COLUMN "ab_test" jsonb;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "ab_decide_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "ab_test_last_message_id" bigint;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "ab_held_last_message_id" bigint;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "ab_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "ab_winner" smallint;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "ab_decision" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "variant" smallint;--> statement-breakpoint
CREATE INDEX "campaign_sends_ab_pending_idx" ON "campaign_sends" USING btree ("ab_decide_at") WHERE ab_decided_at is null;