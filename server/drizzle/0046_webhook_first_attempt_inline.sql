-- A delivery's first attempt, when it succeeds, is kept on the delivery row instead of as a webhook_attempts row
-- (ADR 0026 amendment "less database work per event"): one row fewer per event on the hot path.
ALTER TABLE "webhook_deliveries" ADD COLUMN "first_attempt" jsonb;
