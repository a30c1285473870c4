-- ADR 0039 amendment 1: "aniversário este mês" read every date of the field from the lookup index and filtered
-- the month (at 1M contacts 770 ms p95 for 1/12 of them). The one index now carries the date's month
-- (`substr(day, 6, 2)`, two digits '00'–'99' for every typed date) between `num` and `day`: a month is one key, a
-- date range is `day <op> v` under each of the 100 possible months. Same number of index entries per row, so the
-- triggers' write cost stays as it was.
DROP INDEX "contact_field_values_lookup_idx";--> statement-breakpoint
CREATE INDEX "contact_field_values_month_idx" ON "contact_field_values" USING btree ("account_id","field","num",substr("day", 6, 2),"day","contact_id");
