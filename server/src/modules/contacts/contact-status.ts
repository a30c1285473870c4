import { sql } from 'drizzle-orm';
import { asDb, type DbOrTx, queryRows } from '../../db/database';
import { hasSubscribedMembershipSql } from '../lists/memberships';
import { contacts } from './contacts.db';

/**
 * The contact status changes that other modules cause (a bounce or complaint report, an unsubscribe, the person's
 * consent on a form or a double opt-in link), each one statement on the caller's transaction.
 */

/** A hard bounce (or too many soft ones) or a spam complaint: the contact can no longer receive mail. */
export async function markContactUndeliverable(
  db: DbOrTx,
  accountId: string,
  contactId: string,
  reason: 'bounced' | 'complained',
): Promise<void> {
  await asDb(db).execute(
    sql`update contacts set status = ${reason}, updated_at = now()
         where id = ${contactId} and account_id = ${accountId} and status <> ${reason}`,
  );
}

/** After list changes: unsubscribed when no list is left, subscribed again when one is (never bounced/complained). */
export async function syncContactStatusWithLists(db: DbOrTx, contactId: string): Promise<void> {
  await asDb(db).execute(
    sql`update contacts set status = case when ${hasSubscribedMembershipSql(contactId)}
                                          then 'subscribed' else 'unsubscribed' end,
               updated_at = now()
         where id = ${contactId} and status in ('subscribed', 'unsubscribed')`,
  );
}

export interface ContactConsent {
  at: Date;
  ip: string | null;
  text: string | null;
  /** Where the consent was given (a form of a list); kept as it was when omitted. */
  source?: string;
}

/**
 * The person's consent, recorded on the contact: legal basis "consent" with its time, address and text, and an
 * unsubscribed contact is subscribed again. `onlyReachable`: a bounced or complained contact is left untouched.
 * Returns the contact's (normalised) e-mail, or null when no row changed.
 */
export async function recordContactConsent(
  db: DbOrTx,
  contactId: string,
  consent: ContactConsent,
  options: { onlyReachable: boolean },
): Promise<string | null> {
  const [row] = await queryRows<{ email: string }>(
    asDb(db),
    sql`update contacts set status = case when status = 'unsubscribed' then 'subscribed' else status end,
                            legal_basis = 'consent', consent_at = ${consent.at.toISOString()}::timestamptz,
                            consent_ip = ${consent.ip}, consent_text = ${consent.text},
                            ${consent.source !== undefined ? sql`consent_source = ${consent.source},` : sql``}
                            updated_at = ${consent.at.toISOString()}::timestamptz
         where id = ${contactId}
               ${options.onlyReachable ? sql`and status in ('subscribed', 'unsubscribed')` : sql``}
     returning email`,
  );
  return row?.email ?? null;
}

/**
 * A subscribe form's contact: created subscribed with the form as its consent source, or the account's contact
 * with that address (its name filled in when it had none). Returns the contact's id.
 */
export async function upsertFormContact(
  db: DbOrTx,
  accountId: string,
  input: { email: string; name: string | null; consentSource: string },
): Promise<string> {
  const [row] = await db
    .insert(contacts)
    .values({
      accountId,
      email: input.email,
      name: input.name,
      status: 'subscribed',
      legalBasis: 'consent',
      consentSource: input.consentSource,
    })
    .onConflictDoUpdate({
      target: [contacts.accountId, contacts.email],
      set: { name: sql`coalesce(${contacts.name}, excluded.name)`, updatedAt: new Date() },
    })
    .returning({ id: contacts.id });
  if (!row) throw new Error('contact upsert returned nothing');
  return row.id;
}
