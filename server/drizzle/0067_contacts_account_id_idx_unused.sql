-- A count of lists, status and subscription dates merged this index-only scan of the account's contacts in id order
-- with each list's members (migration 0055); such counts now read the contacts' segment rows (ADR 0043),
-- and nothing else may read it: one write less per contact.
DROP INDEX "contacts_account_id_idx";
