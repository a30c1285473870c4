-- A stream's newest batch in one index probe. A transactional commit asks for it on every group commit (to extend
-- it); message_batches keeps every batch a stream ever had, and without this index the commit read all of them
-- (38 ms at 200,000 batches, growing with the stream's history). On first_message_id: a stream's batches are
-- disjoint id ranges, so the greatest first id is the greatest last id, and first_message_id never changes.
CREATE INDEX "message_batches_stream_newest_idx" ON "message_batches" USING btree ("campaign_id","first_message_id");