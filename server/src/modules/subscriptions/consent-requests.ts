import { randomUUID } from 'node:crypto';
import type { TransactionalMessageInput } from '@carteiro/shared';
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database';
import { buildScope, compileCampaign, renderMessage } from '../templates/render-message';
import { signToken } from './signed-token';
import { subscriptionConsents } from './subscriptions.db';

export const SUBSCRIBE_TOKEN_PURPOSE = 'subscribe-confirm';
export const SUBSCRIBE_TOKEN_TTL_SECONDS = 7 * 24 * 3600;

/** What a confirmation link needs: where the app answers and the secret that signs the link. */
export interface ConsentLinks {
  publicUrl: string;
  secret: string;
  /**
   * Sends the confirmation e-mails as transactional messages of the account, charged like any (transactional's
   * `sendTransactional`, passed in by the composition root: transactional sits above lists and subscriptions).
   */
  sendConfirmations(
    db: Db,
    accountId: string,
    inputs: TransactionalMessageInput[],
    options: { publicUrl: string },
  ): Promise<{ messages: Array<{ status: string }> }>;
}

/**
 * The double opt-in confirmation e-mail, one text whoever asked (the person on a form, or the sender through the
 * API, the dashboard or an import), as Liquid over `listas` ('na lista "X"' / 'nas listas "X" e "Y"'),
 * `remetente` (who sends the list) and `link_confirmacao`; `contato.nome` greets the person when known. HTML
 * output escapes every value, so a list name is never markup.
 */
export const CONFIRMATION_SOURCE = {
  subject: 'Confirme sua inscrição {{ listas }}',
  html:
    '<p>Olá{% if contato.nome != blank %}, {{ contato.nome }}{% endif %}!</p>' +
    '<p>Recebemos um pedido para inscrever este endereço {{ listas }} de {{ remetente }}.</p>' +
    '<p><a href="{{ link_confirmacao }}">Confirmar minha inscrição</a> (link válido por 7 dias)</p>' +
    '<p>Se não foi você, ignore esta mensagem: sem a confirmação, nada será enviado.</p>',
  text:
    'Olá{% if contato.nome != blank %}, {{ contato.nome }}{% endif %}!\n\n' +
    'Recebemos um pedido para inscrever este endereço {{ listas }} de {{ remetente }}. ' +
    'Para confirmar, abra o link abaixo (válido por 7 dias):\n\n{{ link_confirmacao }}\n\n' +
    'Se não foi você, ignore esta mensagem: sem a confirmação, nada será enviado.\n',
};

/** 'na lista "A"', 'nas listas "A" e "B"', 'nas listas "A", "B" e "C"'. */
export function listPhrase(names: string[]): string {
  const quoted = names.map((name) => `"${name}"`);
  if (quoted.length <= 1) return `na lista ${quoted[0] ?? ''}`;
  return `nas listas ${quoted.slice(0, -1).join(', ')} e ${quoted.at(-1)}`;
}

/** The merge data of one confirmation e-mail (CONFIRMATION_SOURCE). */
export function confirmationData(links: ConsentLinks, requestId: string, listNames: string[], senderName: string) {
  const token = signToken(links.secret, SUBSCRIBE_TOKEN_PURPOSE, requestId, SUBSCRIBE_TOKEN_TTL_SECONDS);
  return {
    listas: listPhrase(listNames),
    remetente: senderName,
    link_confirmacao: `${links.publicUrl}/s/confirm?token=${encodeURIComponent(token)}`,
  };
}

let compiledConfirmation: ReturnType<typeof compileCampaign> | null = null;

/** CONFIRMATION_SOURCE rendered for Carteiro's own (system) e-mail: the form's confirmation. */
export function renderConfirmation(
  data: ReturnType<typeof confirmationData>,
  contact: { email: string; name: string | null },
) {
  compiledConfirmation ??= compileCampaign(CONFIRMATION_SOURCE);
  // The same scope a message of the account gets (no unsubscribe link: a confirmation is not marketing).
  const scope = buildScope(contact, { name: data.remetente }, { unsubscribeUrl: '', browserUrl: '' });
  return renderMessage(compiledConfirmation, { ...data, ...scope });
}

export interface ConsentRequest {
  accountId: string;
  contactId: string;
  listIds: string[];
  /** `<listId>:hospedado` / `<listId>:incorporado` for a form; `api`, `painel` or `importação` for a sender. */
  formId: (listId: string) => string;
  consentText: (listId: string) => string;
  ip: string | null;
  userAgent: string | null;
  optIn: 'single' | 'double';
  /** Set for a single opt-in (confirmed at submission); null while a double opt-in waits for its link. */
  confirmedAt: Date | null;
}

/**
 * Records the consent requests (one row per contact and list; the rows of one request share the first row's id
 * as `request_id`) and answers each request's id — what its confirmation link signs. Run it in the transaction
 * that writes the memberships.
 */
export async function recordConsentRequests(db: Db, requests: ConsentRequest[]): Promise<string[]> {
  const ids: string[] = [];
  const rows: Array<typeof subscriptionConsents.$inferInsert> = [];
  for (const request of requests) {
    const requestId = randomUUID();
    ids.push(requestId);
    request.listIds.forEach((listId, index) => {
      rows.push({
        id: index === 0 ? requestId : randomUUID(),
        requestId,
        accountId: request.accountId,
        listId,
        contactId: request.contactId,
        formId: request.formId(listId),
        consentText: request.consentText(listId),
        ip: request.ip,
        userAgent: request.userAgent?.slice(0, 500) ?? null,
        optIn: request.optIn,
        confirmedAt: request.confirmedAt,
      });
    });
  }
  for (let i = 0; i < rows.length; i += 1000) await db.insert(subscriptionConsents).values(rows.slice(i, i + 1000));
  return ids;
}

/** A contact's consent evidence: every request recorded for it (time, IP, form, exact text, confirmation). */
export async function findConsentEvidence(db: DbOrTx, contactId: string) {
  return db
    .select({
      listId: subscriptionConsents.listId,
      formId: subscriptionConsents.formId,
      consentText: subscriptionConsents.consentText,
      ip: subscriptionConsents.ip,
      userAgent: subscriptionConsents.userAgent,
      optIn: subscriptionConsents.optIn,
      createdAt: subscriptionConsents.createdAt,
      confirmedAt: subscriptionConsents.confirmedAt,
    })
    .from(subscriptionConsents)
    .where(eq(subscriptionConsents.contactId, contactId));
}
