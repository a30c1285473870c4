-- The public API's message list newest first, as a live key sees it (GET /api/v1/messages, with or without a date):
-- the plain list walked messages_pkey backward through every campaign message sent since its newest API message
-- (0.6–1.0 s with 2M campaign messages after a 1M-message stream), and a window far in the past through every newer
-- stream message with a heap read each (1.3 s for a window ending ten days back). Here the stream is its own walk
-- and the date is in the index: the rows newer than a window are skipped inside the index, and the heap is read for
-- the page's rows only (docs/benchmarks.md, session 29). It replaces 0063's (campaign_id, created_at) index, so a
-- message writes as many index entries as before; a window with no message now costs a walk of the stream's index
-- (24–43 ms at 1M) instead of one range. Partial like the other stream indexes: a campaign's snapshot rows (with a
-- contact) and a test key's messages (messages_sandbox_idx) stay out.
DROP INDEX "messages_stream_created_idx";--> statement-breakpoint
CREATE INDEX "messages_stream_walk_idx" ON "messages" USING btree ("campaign_id","id","created_at") WHERE contact_id is null and skip_reason is distinct from 'sandbox';
