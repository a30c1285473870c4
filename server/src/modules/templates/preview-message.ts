import type { RenderedPreview } from '@carteiro/shared';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import type { Mailer } from '../../mail/mailer';
import { findAccount } from '../accounts/accounts.service';
import { findContact } from '../contacts/find-contacts';
import {
  buildScope,
  type MessageSource,
  type RenderContact,
  type RenderedMessage,
  SAMPLE_CONTACT,
} from './render-message';
import { renderUntrustedOrExplain } from './untrusted-render';

export type PreviewResult = RenderedPreview;

/**
 * Previews and test sends point the per-recipient links at safe pages: real links (signed tokens) exist only
 * for messages the sending engine creates.
 */
export function previewLinks(publicUrl: string, browserPath: string) {
  return { unsubscribeUrl: `${publicUrl}/descadastro/exemplo`, browserUrl: `${publicUrl}${browserPath}` };
}

/**
 * A message source (library template or campaign) rendered for one contact of the account, or for the sample
 * contact without `contactId`, with the account's footer identity, in the render pool. 404 for a contact of another
 * account; 400 in pt-BR when the Liquid does not compile, stops on a limit or passes the deadline; 503 when busy.
 */
export async function renderPreview(
  db: Db,
  accountId: string,
  source: MessageSource & { name: string },
  options: {
    contactId?: string;
    links: { unsubscribeUrl: string; browserUrl: string };
    /** A library template's per-message variables (`{{ dados.x }}`), already checked against its declaration. */
    data?: Record<string, unknown>;
  },
): Promise<PreviewResult> {
  const account = await findAccount(db, accountId);
  if (!account) throw notFound('account');
  const contact: RenderContact = options.contactId
    ? await findContact(db, accountId, options.contactId)
    : SAMPLE_CONTACT;
  // Off the event loop, under a deadline: the template is the sender's, and may run away.
  const scope = { ...buildScope(contact, account, options.links, source.name), dados: options.data ?? {} };
  const rendered = await renderUntrustedOrExplain(source, scope);
  return { ...rendered, contact: { email: contact.email, name: contact.name ?? null, fields: contact.fields ?? {} } };
}

export const TEST_SUBJECT_PREFIX = '[TESTE] ';

/** Who a test goes out as: the real send's From, Reply-To and source (ADR 0032). */
export interface TestSender {
  accountId: string;
  fromEmail: string;
  fromName: string | null;
  replyTo: string | null;
  /** The campaign's id (its List-Id, as the real message) or the template's. */
  sourceId: string;
  /** The preview's unsubscribe link: List-Unsubscribe points where the body's link does. */
  unsubscribeUrl: string;
}

/**
 * Sends a rendered preview to each address (at most 5, checked by the schema) with "[TESTE]" before the subject,
 * built as the real message is (ADR 0032): the sender's From and Reply-To, the marketing stream's List-Id,
 * Precedence and List-Unsubscribe, signed with the From domain's key or the platform's. Free: the mail policy's
 * quotas bound it instead of the balance.
 */
export async function sendTestMessages(
  mailer: Mailer,
  message: RenderedMessage,
  options: { emails: string[]; fallbackSubject: string; sender: TestSender },
): Promise<{ sent: number }> {
  const { sender } = options;
  for (const to of options.emails) {
    await mailer.send({
      to,
      subject: `${TEST_SUBJECT_PREFIX}${message.subject || options.fallbackSubject}`,
      html: message.html,
      text: message.text,
      from: sender.fromEmail,
      fromName: sender.fromName,
      replyTo: sender.replyTo ?? undefined,
      accountId: sender.accountId,
      stream: 'marketing',
      sourceId: sender.sourceId,
      unsubscribeUrl: sender.unsubscribeUrl,
      headers: { 'X-Carteiro-Test': 'true' },
    });
  }
  return { sent: options.emails.length };
}
