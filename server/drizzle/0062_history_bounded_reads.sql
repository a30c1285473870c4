-- Reads that walked an account's or a stream's whole past, each now one index range (docs/benchmarks.md, session
-- 22): the public API's message list by recipient (101 ms at a 1M-message stream) and a test key's list (172 ms),
-- and an endpoint's failed deliveries in the delivery log (59 ms at 1M deliveries). All three are partial:
-- a campaign's snapshot rows (with a contact), live messages and settled deliveries never enter them. Building the
-- two on messages reads the whole table once (2.6 + 0.5 s at 5M messages, 2 GB): expect about a minute per 100M
-- messages during which messages takes no writes.
CREATE INDEX "messages_stream_recipient_idx" ON "messages" USING btree ("campaign_id","email","id") WHERE contact_id is null;--> statement-breakpoint
CREATE INDEX "messages_sandbox_idx" ON "messages" USING btree ("campaign_id","id") WHERE skip_reason = 'sandbox';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_failed_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at") WHERE "webhook_deliveries"."status" = 'failed';