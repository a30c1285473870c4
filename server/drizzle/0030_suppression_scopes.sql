ALTER TABLE "suppressions" DROP CONSTRAINT "suppressions_account_id_email_hash_pk";--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_account_id_email_hash_reason_pk" PRIMARY KEY("account_id","email_hash","reason");--> statement-breakpoint
-- One row per reason from now on. Before, an address kept only its first reason (ON CONFLICT DO NOTHING): one that
-- unsubscribed and later hard-bounced or complained was kept as "unsubscribed", which now covers marketing only.
-- The stronger causes are restored from what recorded them: the contact's status, and the bounce and complaint
-- events of the account's messages (which outlive a deleted contact).
INSERT INTO "suppressions" ("account_id", "email_hash", "reason")
SELECT c.account_id, encode(sha256(convert_to(c.email, 'UTF8')), 'hex'), c.status
  FROM "contacts" c
 WHERE c.status IN ('bounced', 'complained')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "suppressions" ("account_id", "email_hash", "reason")
SELECT DISTINCT e.account_id, encode(sha256(convert_to(m.email, 'UTF8')), 'hex'),
       CASE WHEN e.kind = 'complaint' THEN 'complained' ELSE 'bounced' END
  FROM "message_events" e
  JOIN "messages" m ON m.id = e.message_id
 WHERE e.kind = 'complaint' OR (e.kind = 'bounce' AND e.bounce_kind = 'hard')
ON CONFLICT DO NOTHING;
