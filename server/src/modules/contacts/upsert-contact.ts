import type { ContactCreateInput, ContactView } from '@carteiro/shared';
import { and, eq } from 'drizzle-orm';
import { type Db, hasSqlState, UNIQUE_VIOLATION } from '../../db/database';
import { contacts } from './contacts.db';
import { type ContactWriteContext, createContact } from './create-contact';
import { updateContact } from './update-contact';

/**
 * Creates the contact with this e-mail, or updates the account's contact that has it (public API `PUT
 * /contacts`): name, status and consent replaced when given (a status back to subscribed needs the person's new
 * consent: 409, see updateContact), custom fields merged, lists added through the one consent rule. A concurrent
 * creation of the same address turns into an update.
 */
export async function upsertContactByEmail(
  db: Db,
  accountId: string,
  input: ContactCreateInput,
  context: ContactWriteContext,
): Promise<{ contact: ContactView; created: boolean }> {
  for (let attempt = 0; ; attempt++) {
    const [existing] = await db
      .select({ id: contacts.id, fields: contacts.fields })
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.email, input.email)));
    if (!existing) {
      try {
        return { contact: await createContact(db, accountId, input, context), created: true };
      } catch (error) {
        if (attempt === 0 && hasSqlState(error, UNIQUE_VIOLATION)) continue;
        throw error;
      }
    }
    const contact = await updateContact(db, accountId, existing.id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.fields !== undefined ? { fields: { ...(existing.fields ?? {}), ...input.fields } } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.legalBasis !== undefined ? { legalBasis: input.legalBasis } : {}),
      ...(input.consentSource !== undefined ? { consentSource: input.consentSource } : {}),
    });
    if (input.listIds?.length) {
      await context.joinLists(db, accountId, input.listIds, [existing.id], {
        kind: 'sender',
        via: context.via,
        ...(context.actor ? { actor: context.actor } : {}),
      });
    }
    return { contact, created: false };
  }
}
