-- ADR 0016, session 11 amendment: a list's subscribed members as an index of their own, so the membership sets of
-- segments and audiences (`list_id = $1 and status = 'subscribed'`) are index-only scans: status is not in the
-- primary key, and reading the members through it fetched every heap row. One more index entry per subscribed
-- membership on write (bench:import figure in docs/benchmarks.md, session 11).
CREATE INDEX "list_memberships_subscribed_idx" ON "list_memberships" USING btree ("list_id","contact_id") WHERE "list_memberships"."status" = 'subscribed';