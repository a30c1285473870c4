-- ADR 0016, session 12 amendment: an account's contacts in id order with status and created_at, so a count of a
-- segment of lists, status and subscription dates is an index-only scan merged with each list's members
-- (list_memberships_subscribed_idx, in contact id order too) instead of hashing them. The predicate always holds:
-- only a query that states it (compile-segment.ts) can use the index; without it the e-mail look-ups of the import
-- chose it under stale statistics (docs/benchmarks.md, session 12). One more index entry per contact on write.
CREATE INDEX "contacts_account_id_idx" ON "contacts" USING btree ("account_id","id","status","created_at") WHERE "contacts"."status" <> '';