-- Migrations 0047 and 0049 updated every row of segment_engagement once or twice (the delivered fact, then
-- ever_opened): at 1M contacts the heap was 226 MB for 115 MB of live rows, and "abriu/clicou em alguma das
-- últimas N" scan it whole. One rewrite, in primary-key order, leaves it compact (docs/benchmarks.md, session 8).
CLUSTER "segment_engagement" USING "segment_engagement_account_id_contact_id_pk";
