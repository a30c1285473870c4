import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { contacts, suppressions } from './contacts.db';
import { hashEmail } from './email-hash';

/**
 * LGPD erasure (art. 18): deletes the contact, its memberships and personal data; keeps only the sha256 of the
 * normalised address in the suppression list so a later import or form does not bring the person back.
 */
export async function eraseContact(db: Db, accountId: string, contactId: string): Promise<{ emailHash: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)))
      .returning({ email: contacts.email });
    if (!row) throw new AppError('not_found', 'Contato não encontrado.');
    const emailHash = hashEmail(row.email);
    // Beside the address's other reasons (a bounce stays a bounce if the person later subscribes again).
    await tx.insert(suppressions).values({ accountId, emailHash, reason: 'erased' }).onConflictDoNothing();
    return { emailHash };
  });
}
