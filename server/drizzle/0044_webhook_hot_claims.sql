-- A claim's lease moves to its own column, in no index (ADR 0026 amendment "a claim writes no index entry"): with
-- room left on each page (fillfactor), stamping it is a HOT update. A delivery's first attempt, when it succeeds,
-- is kept on the delivery row instead of as a webhook_attempts row. Deliveries claimed under the old lease (their
-- next_attempt_at moved one lease ahead) are due again when it passes, as before.
ALTER TABLE "webhook_deliveries" ADD COLUMN "leased_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "first_attempt" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" SET (fillfactor = 70);
