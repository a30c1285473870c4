-- The deliveries table becomes the delivery queue (ADR 0026): a pending delivery is due at next_attempt_at and
-- held by the claim_token of the worker attempting it. Deliveries pending under the old pg-boss queue are due at
-- once; that queue's leftover jobs are no longer worked and go with pg-boss's own retention.
DROP INDEX "webhook_deliveries_unenqueued_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "enqueued_at";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "run_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "claim_token" uuid;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","next_attempt_at","created_at") WHERE "webhook_deliveries"."status" = 'pending';