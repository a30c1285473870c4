import type { ContactUpdateInput, ContactView } from '@carteiro/shared';
import { and, eq } from 'drizzle-orm';
import { type Db, hasSqlState, UNIQUE_VIOLATION } from '../../db/database';
import { AppError } from '../../http/app-error';
import { notFound } from '../../http/not-found';
import { toContactView } from './contact-view';
import { type ContactStatus, contacts } from './contacts.db';
import { findSuppressed } from './suppression';
import { unsubscribeContacts } from './unsubscribe-contacts';

/**
 * Why a contact cannot be moved back to subscribed by the sender: the person opted out (or their mailbox or
 * provider did), and only their own new consent brings them back — a subscription they confirm through the list's
 * form, or "Quero voltar a receber" on the unsubscribe page of a message they received. Both record the consent
 * and make the contact subscribed themselves.
 */
const RESUBSCRIBE_NEEDS_CONSENT: Record<Exclude<ContactStatus, 'subscribed'>, string> = {
  unsubscribed:
    'Este contato cancelou a inscrição e só volta com um novo consentimento dele: peça que se inscreva de novo pelo formulário da lista (ele confirma por e-mail) ou pelo link "Quero voltar a receber" da página de descadastro de um e-mail que recebeu.',
  bounced:
    'Os e-mails para este endereço voltaram como inexistente (devolução permanente): ele não pode ser reinscrito pela conta. Se a pessoa corrigiu a caixa de e-mail, ela pode se inscrever de novo pelo formulário da lista.',
  complained:
    'Esta pessoa marcou um e-mail da conta como spam: ela não pode ser reinscrita pela conta, só por uma nova inscrição dela pelo formulário da lista.',
};

/**
 * Changes a contact of the account; 404 when it is not the account's, 409 when the new e-mail is taken or on the
 * account's suppression list (renaming a contact must not bring back an erased or suppressed address), 409
 * `consent_required` when the status would go back to subscribed without the person's new consent (see
 * RESUBSCRIBE_NEEDS_CONSENT). Setting the status to unsubscribed is an unsubscribe like the bulk action: every list
 * and the suppression list too.
 */
export async function updateContact(
  db: Db,
  accountId: string,
  contactId: string,
  input: ContactUpdateInput,
): Promise<ContactView> {
  if (input.email !== undefined || input.status === 'subscribed') {
    const [current] = await db
      .select({ email: contacts.email, status: contacts.status })
      .from(contacts)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)));
    if (!current) throw notFound('contact');
    if (input.status === 'subscribed' && current.status !== 'subscribed') {
      throw new AppError('consent_required', RESUBSCRIBE_NEEDS_CONSENT[current.status], { status: current.status });
    }
    if (
      input.email !== undefined &&
      current.email !== input.email &&
      (await findSuppressed(db, accountId, [input.email], 'marketing')).size > 0
    ) {
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
    if (!row) throw notFound('contact');
    if (input.status === 'unsubscribed') await unsubscribeContacts(db, accountId, [contactId]);
    return toContactView(row);
  } catch (error) {
    if (hasSqlState(error, UNIQUE_VIOLATION)) throw new AppError('contact_exists');
    throw error;
  }
}
