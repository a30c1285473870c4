ALTER TABLE "campaigns" ADD COLUMN "skipped_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_batches" ADD COLUMN "sent_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_batches" ADD COLUMN "recorded_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "message_batches_recorded_idx" ON "message_batches" USING btree ("campaign_id","recorded_at");--> statement-breakpoint
-- Campaigns sent before this counter existed: their skipped messages, counted once here.
UPDATE "campaigns" c SET "skipped_count" = s.n
  FROM (SELECT campaign_id, count(*)::int AS n FROM "messages" WHERE status = 'skipped' GROUP BY campaign_id) s
 WHERE c.id = s.campaign_id;
