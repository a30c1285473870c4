import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import type { Tx } from '../accounts/account-balance';
import { contacts, suppressions } from './contacts.db';
import { hashEmail } from './email-hash';

/**
 * Deletes, in the erasure's transaction, what a module above contacts keeps that mentions the address (imports'
 * stored CSVs): passed in by the caller, so contacts depends on none of them.
 */
export type EraseMentions = (tx: Tx, accountId: string, email: string) => Promise<void>;

/**
 * LGPD erasure (art. 18): deletes the contact, its memberships, its engagement facts (segment_engagement and
 * contact_first_opens rows — these and the memberships by triggers on the delete) and personal data — stored
 * import files that mention the address included; keeps only the sha256 of the normalised address in the suppression list so a
 * later import or form does not bring the person back.
 */
export async function eraseContact(
  db: Db,
  accountId: string,
  contactId: string,
  eraseMentions: EraseMentions,
): Promise<{ emailHash: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)))
      .returning({ email: contacts.email });
    if (!row) throw notFound('contact');
    const emailHash = hashEmail(row.email);
    // Beside the address's other reasons (a bounce stays a bounce if the person later subscribes again).
    await tx.insert(suppressions).values({ accountId, emailHash, reason: 'erased' }).onConflictDoNothing();
    // The raw CSVs the account uploaded (and their rejected-rows reports) that still hold the address go too.
    await eraseMentions(tx, accountId, row.email);
    return { emailHash };
  });
}
