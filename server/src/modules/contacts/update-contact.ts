import type { ContactUpdateInput } from '@carteiro/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { type ContactView, toContactView } from './contact-view';
import { contacts } from './contacts.db';
import { findSuppressed } from './suppression';
import { unsubscribeContacts } from './unsubscribe-contacts';

/**
 * Changes a contact of the account; 404 when it is not the account's, 409 when the new e-mail is taken or on the
 * account's suppression list (renaming a contact must not bring back an erased or suppressed address). Setting
 * the status to unsubscribed is an unsubscribe like the bulk action: every list and the suppression list too.
 */
export async function updateContact(
  db: Db,
  accountId: string,
  contactId: string,
  input: ContactUpdateInput,
): Promise<ContactView> {
  if (input.email !== undefined) {
    const [current] = await db
      .select({ email: contacts.email })
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)));
    if (!current) throw new AppError('not_found', 'Contato não encontrado.');
    if (current.email !== input.email && (await findSuppressed(db, accountId, [input.email], 'marketing')).size > 0) {
      throw new AppError('address_suppressed');
    }
  }
  const patch: Partial<typeof contacts.$inferInsert> = { updatedAt: new Date() };
  if (input.email !== undefined) patch.email = input.email;
  if (input.name !== undefined) patch.name = input.name;
  if (input.fields !== undefined) patch.fields = input.fields;
  if (input.status !== undefined) patch.status = input.status;
  if (input.legalBasis !== undefined) patch.legalBasis = input.legalBasis;
  if (input.consentSource !== undefined) patch.consentSource = input.consentSource;
  try {
    const [row] = await db
      .update(contacts)
      .set(patch)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)))
      .returning();
    if (!row) throw new AppError('not_found', 'Contato não encontrado.');
    if (input.status === 'unsubscribed') await unsubscribeContacts(db, accountId, [contactId]);
    return toContactView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('contact_exists');
    throw error;
  }
}

export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  while (current && typeof current === 'object') {
    if ((current as { code?: string }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
