-- ADR 0039 amendment 1: 0052's one month-first index made the date ranges ("nascimento antes de …") a range per
-- possible month, which PostgreSQL 15 neither estimates well nor scans in parallel (1M contacts: 1.3× slower in
-- the same run). Back to the lookup index for numbers and date ranges, and a second index over the date rows only
-- for "aniversário este mês" (one key per month; `day` in it so the read stays index-only). One more index entry
-- per date row on write.
DROP INDEX "contact_field_values_month_idx";--> statement-breakpoint
CREATE INDEX "contact_field_values_lookup_idx" ON "contact_field_values" USING btree ("account_id","field","num","day","contact_id");--> statement-breakpoint
CREATE INDEX "contact_field_values_month_idx" ON "contact_field_values" USING btree ("account_id","field",substr("day", 6, 2),"day","contact_id") WHERE "contact_field_values"."day" is not null;
