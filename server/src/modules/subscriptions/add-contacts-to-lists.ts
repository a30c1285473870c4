import { CONSENT_LIFTS, type TransactionalMessageInput } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { asDb, type Db, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { notFound } from '../../http/not-found';
import type { Mailer } from '../../mail/mailer';
import { findAccount } from '../accounts/accounts.service';
import { insufficientBalanceMessage } from '../billing/ledger';
import { recordContactConsent } from '../contacts/contact-status';
import { suppressedForStreamSql, suppressionReasonFor } from '../contacts/suppression';
import { findListSummaries } from '../lists/list-directory';
import { joinListsSql, putFormMembership } from '../lists/memberships';
import { assertSenderAllowed } from '../sender-identities/sender-identities';
import {
  CONFIRMATION_SOURCE,
  type ConsentLinks,
  confirmationData,
  recordConsentRequests,
  renderConfirmation,
} from './consent-requests';

/**
 * Who asked to put contacts on lists — which decides what consent looks like:
 * - `sender`: the account, through the API, the dashboard or an import (`via`). Only contacts that are subscribed
 *   and not suppressed join; a double opt-in list makes them pending and asks each person once, by a message of the
 *   account (From its default sender, charged and checked like any message it sends). `actor` is the signed-in
 *   person (dashboard, import), whose e-mail must be verified before Carteiro mails on their behalf; API keys
 *   have none.
 * - `form`: the person, on a list's hosted or embedded form. Anyone may ask (a former subscriber included); a
 *   double opt-in list — or an address on the account's suppression list, whatever the list — is confirmed by
 *   Carteiro's own e-mail, free, at most one per contact and list an hour.
 */
export type ListJoinCause =
  | { kind: 'sender'; via: 'api' | 'painel' | 'importação'; actor?: { emailVerified: boolean } }
  | {
      kind: 'form';
      form: 'hospedado' | 'incorporado';
      ip: string | null;
      userAgent: string | null;
      consentText: string;
      mailer: Mailer;
    };

export interface AddToListsResult {
  /** Memberships created subscribed (single opt-in lists). */
  subscribed: number;
  /** Memberships created pending (double opt-in lists), waiting for the person's confirmation. */
  pending: number;
  /** Contacts left out: unsubscribed, bounced, complained or suppressed (a sender cannot undo an opt-out). */
  skipped: number;
  /** Confirmation e-mails queued or sent: one per contact, whatever the number of lists. */
  confirmationsSent: number;
}

/** A form's confirmation is not sent again for the same contact and list within this time (double submissions). */
export const FORM_CONFIRMATION_INTERVAL_SECONDS = 3600;

const SENDER_SOURCE: Record<'api' | 'painel' | 'importação', string> = {
  api: 'API',
  painel: 'painel',
  importação: 'importação',
};

async function requireLists(db: Db, accountId: string, listIds: string[]) {
  const unique = [...new Set(listIds)];
  if (unique.length === 0) return [];
  const found = await findListSummaries(db, unique, accountId);
  if (found.length !== unique.length) throw notFound('list');
  return unique.map((id) => found.find((list) => list.id === id) as (typeof found)[number]);
}

function uuidArray(ids: string[]) {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/**
 * THE way a contact joins a list (consent in one place): every path — the public API, the dashboard, CSV imports,
 * the subscribe forms — calls it, and automations only ever see what it made subscribed. A single opt-in list
 * subscribes at once; a double opt-in list makes the membership pending and sends ONE confirmation e-mail per
 * contact (naming every double opt-in list of the call), whose link (`confirmSubscription`) subscribes it; a
 * membership that already exists keeps its status (never a second e-mail, never an opt-out undone). Writes the
 * memberships, the consent evidence and, for a sender, the charged confirmation messages in one transaction:
 * all or nothing (404 for a list of another account, 402 when the balance cannot pay the confirmations, 403 when
 * the account's default sender is not verified or the person's e-mail is not). Ids of other accounts' contacts
 * are ignored.
 */
export async function addContactsToLists(
  db: Db,
  links: ConsentLinks,
  accountId: string,
  listIds: string[],
  contactIds: string[],
  cause: ListJoinCause,
): Promise<AddToListsResult> {
  const result: AddToListsResult = { subscribed: 0, pending: 0, skipped: 0, confirmationsSent: 0 };
  const targets = await requireLists(db, accountId, listIds);
  const ids = [...new Set(contactIds)];
  if (targets.length === 0 || ids.length === 0) return result;
  if (cause.kind === 'form') return joinByForm(db, links, accountId, targets, ids, cause);

  if (targets.some((list) => list.optIn === 'double')) await assertMayAskConsent(db, accountId, cause.actor);
  return db.transaction(async (tx) => {
    const t = asDb(tx);
    // One statement: the account's contacts among the ids, those that may receive marketing (subscribed, not
    // suppressed: the contacts module's rule, as every send applies it) join every list with the list's status.
    // LATERAL … LIMIT 1: one primary-key probe per id whatever the statistics (an import passes 10,000 at a time).
    const [row] = await queryRows<{ of_account: number; eligible: number; subscribed: number; pending: string | null }>(
      t,
      sql`with candidate as (
            select c.id, (c.status = 'subscribed'
                          and not ${suppressedForStreamSql(sql`c.account_id`, sql`c.email`, 'marketing')}) as ok
              from unnest(${uuidArray(ids)}) as given(id)
              cross join lateral (select c.id, c.account_id, c.email, c.status from contacts c
                                   where c.id = given.id and c.account_id = ${accountId} limit 1) c),
          joined as (${joinListsSql(
            targets.map((l) => l.id),
            sql`select id from candidate where ok`,
          )})
          select (select count(*) from candidate)::int as of_account,
                 (select count(*) from candidate where ok)::int as eligible,
                 (select count(*) from joined where status = 'subscribed')::int as subscribed,
                 (select string_agg(contact_id::text || ':' || list_id::text, ',') from joined
                   where status = 'pending') as pending`,
    );
    result.skipped = Number(row?.of_account ?? 0) - Number(row?.eligible ?? 0);
    result.subscribed = Number(row?.subscribed ?? 0);
    const pendingLists = new Map<string, string[]>();
    for (const pair of row?.pending ? row.pending.split(',') : []) {
      const [contactId, listId] = pair.split(':') as [string, string];
      result.pending++;
      const known = pendingLists.get(contactId);
      if (known) known.push(listId);
      else pendingLists.set(contactId, [listId]);
    }
    if (pendingLists.size === 0) return result;

    // One confirmation e-mail per contact, a message of the account: the same send path as its API messages.
    const contacts = await queryRows<{ id: string; email: string; name: string | null }>(
      t,
      sql`select id, email, name from contacts where account_id = ${accountId}
             and id = any(${uuidArray([...pendingLists.keys()])}) order by email`,
    );
    const requestIds = await recordConsentRequests(
      t,
      contacts.map((contact) => ({
        accountId,
        contactId: contact.id,
        listIds: pendingLists.get(contact.id) as string[],
        formId: () => SENDER_SOURCE[cause.via],
        consentText: (listId) =>
          `Pedido de confirmação enviado pela conta (${SENDER_SOURCE[cause.via]}) para a lista "${targets.find((l) => l.id === listId)?.name}".`,
        ip: null,
        userAgent: null,
        optIn: 'double',
        confirmedAt: null,
      })),
    );
    const sender = await defaultSender(t, accountId);
    const names = new Map(targets.map((l) => [l.id, l.name]));
    const inputs: TransactionalMessageInput[] = contacts.map((contact, index) => ({
      to: { email: contact.email, ...(contact.name ? { name: contact.name } : {}) },
      from: { email: sender.email, name: sender.name },
      subject: CONFIRMATION_SOURCE.subject,
      html: CONFIRMATION_SOURCE.html,
      text: CONFIRMATION_SOURCE.text,
      data: confirmationData(
        links,
        requestIds[index] as string,
        (pendingLists.get(contact.id) as string[]).map((id) => names.get(id) as string),
        sender.name,
      ),
      category: 'transactional',
      trackOpens: false,
      trackClicks: false,
    }));
    const sent = await links
      .sendConfirmations(t, accountId, inputs, { publicUrl: links.publicUrl })
      .catch((error: unknown) => {
        if (!(error instanceof AppError) || error.code !== 'insufficient_balance') throw error;
        const missing = (error.details as { missingMillis: number }).missingMillis;
        const what =
          inputs.length === 1
            ? 'para enviar o e-mail de confirmação da lista com confirmação dupla'
            : `para enviar os ${inputs.length} e-mails de confirmação das listas com confirmação dupla`;
        throw new AppError('insufficient_balance', insufficientBalanceMessage(missing, what), error.details);
      });
    result.confirmationsSent = sent.messages.filter((m) => m.status !== 'suppressed').length;
    return result;
  });
}

/**
 * `addContactsToLists` for the account's own writes, with these confirmation links: what contacts' writes (the
 * dashboard's routes, the public API's contacts) receive as their `JoinLists`.
 */
export function joinListsWith(links: ConsentLinks) {
  return (
    db: Db,
    accountId: string,
    listIds: string[],
    contactIds: string[],
    cause: Extract<ListJoinCause, { kind: 'sender' }>,
  ): Promise<AddToListsResult> => addContactsToLists(db, links, accountId, listIds, contactIds, cause);
}

/** One list: `addContactsToLists`. */
export function addContactsToList(
  db: Db,
  links: ConsentLinks,
  accountId: string,
  listId: string,
  contactIds: string[],
  cause: ListJoinCause,
): Promise<AddToListsResult> {
  return addContactsToLists(db, links, accountId, [listId], contactIds, cause);
}

/**
 * Whether the account may ask contacts for consent by e-mail (what putting them on a double opt-in list does):
 * the signed-in person's e-mail is verified (403 email_not_verified) and the account's default sender, which the
 * confirmations go out from, is set and passes the sending rule (403 sender_not_verified). The balance is checked
 * when the confirmations are charged. Called before anything is written (an import asks before it starts).
 */
export async function assertMayAskConsent(db: Db, accountId: string, actor?: { emailVerified: boolean }) {
  if (actor && !actor.emailVerified) {
    throw new AppError(
      'email_not_verified',
      'Confirme o seu e-mail antes de adicionar contatos a listas com confirmação dupla: o Carteiro vai enviar um e-mail de confirmação a cada um. Abra o link que enviamos para você (ou peça outro em Configurações → Conta).',
    );
  }
  await assertSenderAllowed(db, accountId, (await defaultSender(db, accountId)).email);
}

/** The account's default From, which its confirmation messages go out from; 403 in pt-BR when there is none. */
async function defaultSender(db: Db, accountId: string): Promise<{ email: string; name: string }> {
  const account = await findAccount(db, accountId);
  if (!account?.defaultFromEmail) {
    throw new AppError(
      'sender_not_verified',
      'Defina o remetente padrão da conta (um endereço confirmado ou de um domínio verificado) em Configurações → Remetentes e domínios: é dele que sai o e-mail de confirmação das listas com confirmação dupla.',
      { field: 'defaultFromEmail' },
    );
  }
  return { email: account.defaultFromEmail, name: account.defaultFromName || account.name };
}

/**
 * The person's own subscription on a form: one contact, one list. Subscribed at once on a single opt-in list,
 * unless the address is suppressed (only the mailbox's owner may lift that, by the e-mailed link); otherwise pending
 * and confirmed by Carteiro's own e-mail. A membership already subscribed stays so; a pending or unsubscribed one
 * takes the new status. The evidence (time, IP, user agent, form, exact consent text) is recorded either way.
 */
async function joinByForm(
  db: Db,
  links: ConsentLinks,
  accountId: string,
  targets: Array<{ id: string; name: string; optIn: 'single' | 'double' }>,
  contactIds: string[],
  cause: Extract<ListJoinCause, { kind: 'form' }>,
): Promise<AddToListsResult> {
  const list = targets[0];
  const contactId = contactIds[0];
  if (!list || !contactId || targets.length > 1 || contactIds.length > 1) {
    throw new Error('a form subscribes one contact to one list');
  }
  const result: AddToListsResult = { subscribed: 0, pending: 0, skipped: 0, confirmationsSent: 0 };
  const now = new Date();
  const mail = await db.transaction(async (tx) => {
    const t = asDb(tx);
    const [contact] = await queryRows<{ email: string; name: string | null; suppressed: boolean }>(
      t,
      sql`select c.email, c.name, ${suppressedForStreamSql(sql`c.account_id`, sql`c.email`, 'marketing')} as suppressed
            from contacts c where c.id = ${contactId} and c.account_id = ${accountId}`,
    );
    if (!contact) return null;
    const needsConfirmation = list.optIn === 'double' || contact.suppressed;
    const membership = await putFormMembership(t, list.id, contactId, needsConfirmation ? 'pending' : 'subscribed');
    if (membership === 'subscribed') result.subscribed++;
    else result.pending++;
    // A second submission shortly after the first (a double click, an impatient person) gets no second e-mail.
    const [recent] = needsConfirmation
      ? await queryRows<{ id: string }>(
          t,
          sql`select id from subscription_consents
               where contact_id = ${contactId} and list_id = ${list.id} and confirmed_at is null
                 and created_at > now() - make_interval(secs => ${FORM_CONFIRMATION_INTERVAL_SECONDS})
               limit 1`,
        )
      : [];
    const [requestId] = await recordConsentRequests(t, [
      {
        accountId,
        contactId,
        listIds: [list.id],
        formId: (listId) => `${listId}:${cause.form}`,
        consentText: () => cause.consentText,
        ip: cause.ip,
        userAgent: cause.userAgent,
        optIn: needsConfirmation ? 'double' : 'single',
        confirmedAt: needsConfirmation ? null : now,
      },
    ]);
    if (!needsConfirmation) {
      // The person's consent, recorded on the contact (an unsubscribed contact who subscribes again is back).
      await recordContactConsent(
        t,
        contactId,
        { at: now, ip: cause.ip, text: cause.consentText, source: `formulário ${cause.form} da lista "${list.name}"` },
        { onlyReachable: true },
      );
      return null;
    }
    if (recent) return null;
    return { email: contact.email, name: contact.name, requestId: requestId as string };
  });
  if (!mail) return result;
  // Carteiro's own (system) e-mail, asked for by the person: it is not sent to an address whose suppression their
  // confirmation could not lift (a bounce, a complaint, the sender's manual entry) — the form answers the same.
  if (await suppressionReasonFor(db, accountId, mail.email, 'system', CONSENT_LIFTS)) return result;
  const account = await findAccount(db, accountId);
  const rendered = renderConfirmation(
    confirmationData(links, mail.requestId, [list.name], account?.defaultFromName || account?.name || ''),
    mail,
  );
  await cause.mailer.send({ to: mail.email, subject: rendered.subject, html: rendered.html, text: rendered.text });
  result.confirmationsSent = 1;
  return result;
}
