-- ADR 0016, session 12 amendment: an account's contacts in id order with status and created_at, so a segment of
-- lists, status and subscription dates counts as an index-only scan merged with each list's members
-- (list_memberships_subscribed_idx, in contact id order too) instead of hashing them: at 1M contacts "está em
-- Clientes" (600k members) 1.6–1.8× faster. One more index entry per contact on write (bench:import figure in
-- docs/benchmarks.md, session 12).
CREATE INDEX "contacts_account_id_idx" ON "contacts" USING btree ("account_id","id","status","created_at");