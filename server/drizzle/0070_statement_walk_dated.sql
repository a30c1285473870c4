-- The account statement newest first (list-statement.ts) walks ledger_entries_account_seq_idx; with a period ending
-- far in the past it read the row of every newer entry to find the period's (239 ms for a day near the start of a
-- 1M-entry ledger). With the date in the index the newer entries are skipped inside it: 33 ms (docs/benchmarks.md,
-- session 29). The same index, one column wider: no new index for every send's ledger entry to write.
DROP INDEX "ledger_entries_account_seq_idx";--> statement-breakpoint
CREATE INDEX "ledger_entries_account_seq_idx" ON "ledger_entries" USING btree ("account_id","seq","created_at");
