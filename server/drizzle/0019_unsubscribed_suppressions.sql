-- Contacts unsubscribed before unsubscribes wrote the suppression list (reason 'unsubscribed'): the same rule as
-- suppressUnsubscribedContacts — a contact that unsubscribed and is on no list any more — so that deleting
-- one and importing the address again cannot mail that person.
INSERT INTO "suppressions" ("account_id", "email_hash", "reason")
SELECT c.account_id, encode(sha256(convert_to(c.email, 'UTF8')), 'hex'), 'unsubscribed'
  FROM "contacts" c
 WHERE c.status = 'unsubscribed'
   AND NOT EXISTS (SELECT 1 FROM "list_memberships" m WHERE m.contact_id = c.id AND m.status = 'subscribed')
ON CONFLICT ("account_id", "email_hash") DO NOTHING;
