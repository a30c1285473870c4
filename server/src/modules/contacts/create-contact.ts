import type { ContactCreateInput } from '@carteiro/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { listMemberships, lists } from '../lists/lists.db';
import { type ContactView, toContactView } from './contact-view';
import { contacts } from './contacts.db';
import { findSuppressed } from './suppression';

/**
 * Creates one contact (e-mail already normalised by the schema). Refuses an address already in the account
 * (409) or in its suppression list (an erased or suppressed person is not re-added by hand).
 */
export async function createContact(
  db: Db,
  accountId: string,
  input: ContactCreateInput,
  evidence: { ip?: string | null } = {},
): Promise<ContactView> {
  if ((await findSuppressed(db, accountId, [input.email], 'marketing')).size > 0) {
    throw new AppError(
      'address_suppressed',
      'Este endereço está na lista de supressão da conta e não pode ser adicionado.',
    );
  }
  const listIds = input.listIds ?? [];
  if (listIds.length > 0) {
    const found = await db
      .select({ id: lists.id })
      .from(lists)
      .where(and(eq(lists.accountId, accountId), inArray(lists.id, listIds)));
    if (found.length !== new Set(listIds).size) throw new AppError('not_found', 'Lista não encontrada.');
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contacts)
      .values({
        accountId,
        email: input.email,
        name: input.name ?? null,
        fields: input.fields ?? {},
        status: input.status ?? 'subscribed',
        legalBasis: input.legalBasis ?? null,
        consentSource: input.consentSource ?? (input.legalBasis ? 'manual' : null),
        consentText: input.consentText ?? null,
        consentIp: input.legalBasis ? (evidence.ip ?? null) : null,
        consentAt: input.legalBasis ? new Date() : null,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('contact_exists');
    if (listIds.length > 0) {
      await tx
        .insert(listMemberships)
        .values([...new Set(listIds)].map((listId) => ({ listId, contactId: row.id })))
        .onConflictDoNothing();
    }
    return toContactView(row);
  });
}
