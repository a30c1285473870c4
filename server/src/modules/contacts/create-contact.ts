import { type ContactCreateInput, type ContactView, LEGAL_BASIS_REQUIRED } from '@carteiro/shared';
import { asDb, type Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { AddToListsResult, ListJoinCause } from '../subscriptions/add-contacts-to-lists';
import { toContactView } from './contact-view';
import { contacts } from './contacts.db';
import { findSuppressed } from './suppression';

/**
 * Puts contacts of the account on lists under the one consent rule — subscriptions' `addContactsToLists` with the
 * account as the cause and the confirmation links bound (`joinListsWith`) —, handed in by the composition root:
 * subscriptions sits above contacts.
 */
export type JoinLists = (
  db: Db,
  accountId: string,
  listIds: string[],
  contactIds: string[],
  cause: Extract<ListJoinCause, { kind: 'sender' }>,
) => Promise<AddToListsResult>;

/** Who creates the contact, and how it joins its lists (see `addContactsToLists`). */
export interface ContactWriteContext {
  joinLists: JoinLists;
  via: 'api' | 'painel';
  /** The signed-in person (dashboard); none for an API key. */
  actor?: { emailVerified: boolean };
  ip?: string | null;
}

/** Where the evidence says a contact came from when its creator does not say: a person's hand, or an integration. */
const CONSENT_SOURCE_DEFAULT = { painel: 'manual', api: 'API' } as const;

/**
 * Creates one contact (e-mail already normalised by the schema) and puts it on `listIds` through the one consent
 * rule (`addContactsToLists`: a double opt-in list makes it pending and sends its confirmation), all in one
 * transaction. Refuses an address already in the account (409) or in its suppression list (an erased or suppressed
 * person is not re-added by hand), a list of another account (404), and whatever the confirmation refuses (402,
 * 403): nothing is written then.
 */
export async function createContact(
  db: Db,
  accountId: string,
  input: ContactCreateInput,
  context: ContactWriteContext,
): Promise<ContactView> {
  // An integration's contact carries the evidence the dashboard's form asks for (ADR 0037): here, not only in the
  // POST schema, so `PUT /contacts` creating a contact asks for it too (an update keeps the evidence it has).
  if (context.via === 'api' && !input.legalBasis) {
    throw new AppError('validation_failed', `legalBasis: ${LEGAL_BASIS_REQUIRED}`, {
      fields: [{ path: 'legalBasis', message: LEGAL_BASIS_REQUIRED }],
    });
  }
  if ((await findSuppressed(db, accountId, [input.email], 'marketing')).size > 0) {
    throw new AppError(
      'address_suppressed',
      'Este endereço está na lista de supressão da conta e não pode ser adicionado.',
    );
  }
  const listIds = [...new Set(input.listIds ?? [])];
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
        consentSource: input.consentSource ?? (input.legalBasis ? CONSENT_SOURCE_DEFAULT[context.via] : null),
        consentText: input.consentText ?? null,
        consentIp: input.legalBasis ? (context.ip ?? null) : null,
        consentAt: input.legalBasis ? new Date() : null,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('contact_exists');
    if (listIds.length > 0) {
      await context.joinLists(asDb(tx), accountId, listIds, [row.id], {
        kind: 'sender',
        via: context.via,
        ...(context.actor ? { actor: context.actor } : {}),
      });
    }
    return toContactView(row);
  });
}
