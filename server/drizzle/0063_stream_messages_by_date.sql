-- The public API's message list filtered by date (GET /api/v1/messages?since=&until=): a window holding fewer
-- messages than the page walked the stream newest first through every message after it (docs/benchmarks.md,
-- session 23: 606–632 ms for an empty window at a 1M-message stream, 2–3 ms with this range). Partial like
-- messages_stream_recipient_idx: a campaign's snapshot rows (with a contact) never enter it.
CREATE INDEX "messages_stream_created_idx" ON "messages" USING btree ("campaign_id","created_at") WHERE contact_id is null;
