import type { ContactUpdateInput } from '@carteiro/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { type ContactView, toContactView } from './contact-view';
import { contacts } from './contacts.db';

/** Changes a contact of the account; 404 when it is not the account's, 409 when the new e-mail is taken. */
export async function updateContact(
  db: Db,
  accountId: string,
  contactId: string,
  input: ContactUpdateInput,
): Promise<ContactView> {
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
    return toContactView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', 'Já existe um contato com este e-mail.');
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
