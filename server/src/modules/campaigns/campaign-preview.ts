import { type CampaignSummary, costOfEmailsMillis } from '@carteiro/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { Mailer } from '../../mail/mailer';
import { accounts } from '../accounts/accounts.db';
import { countRecipients } from '../contacts/count-recipients';
import { findContact } from '../contacts/find-contacts';
import {
  buildScope,
  compileCampaign,
  type RenderContact,
  type RenderedMessage,
  renderMessage,
  SAMPLE_CONTACT,
} from '../templates/render-message';
import { findCampaignRow } from './campaigns';
import { campaigns } from './campaigns.db';

async function findAccount(db: Db, accountId: string) {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new AppError('not_found', 'Conta não encontrada.');
  return account;
}

function previewLinks(publicUrl: string, campaignId: string) {
  return {
    // Real per-recipient links (signed tokens) are made by the sending engine; previews point at safe pages.
    unsubscribeUrl: `${publicUrl}/descadastro/exemplo`,
    browserUrl: `${publicUrl}/campaign/${campaignId}/template-viewer`,
  };
}

/**
 * The campaign rendered for one contact of the account (or sample data without `contactId`). 404 for a
 * contact of another account; 400 when the Liquid does not compile.
 */
export async function previewCampaign(
  db: Db,
  accountId: string,
  id: string,
  options: { contactId?: string; publicUrl: string },
): Promise<RenderedMessage & { contact: RenderContact }> {
  const campaign = await findCampaignRow(db, accountId, id);
  const account = await findAccount(db, accountId);
  const contact: RenderContact = options.contactId
    ? await findContact(db, accountId, options.contactId)
    : SAMPLE_CONTACT;
  let compiled: ReturnType<typeof compileCampaign>;
  try {
    compiled = compileCampaign({ subject: campaign.subject, preheader: campaign.preheader, html: campaign.template });
  } catch (error) {
    throw new AppError('validation_failed', `O modelo tem um erro de Liquid: ${(error as Error).message}`);
  }
  const rendered = renderMessage(
    compiled,
    buildScope(contact, account, previewLinks(options.publicUrl, id), campaign.name),
  );
  return { ...rendered, contact: { email: contact.email, name: contact.name ?? null, fields: contact.fields ?? {} } };
}

export const TEST_SUBJECT_PREFIX = '[TESTE] ';

/** Sends the preview (contact or sample data) to up to 5 addresses with "[TESTE]" before the subject. */
export async function sendCampaignTest(
  db: Db,
  mailer: Mailer,
  accountId: string,
  id: string,
  options: { emails: string[]; contactId?: string; publicUrl: string },
): Promise<{ sent: number }> {
  const message = await previewCampaign(db, accountId, id, options);
  const campaign = await findCampaignRow(db, accountId, id);
  for (const to of options.emails) {
    await mailer.send({
      to,
      subject: `${TEST_SUBJECT_PREFIX}${message.subject || campaign.name}`,
      html: message.html,
      text: message.text,
      replyTo: campaign.replyTo ?? campaign.fromEmail ?? undefined,
      headers: { 'X-Carteiro-Test': 'true' },
    });
  }
  return { sent: options.emails.length };
}

/** Recipient count, cost at the account's price and the balance left after sending (before the "Enviar" button). */
export async function summariseCampaign(db: Db, accountId: string, id: string): Promise<CampaignSummary> {
  const campaign = await findCampaignRow(db, accountId, id);
  const account = await findAccount(db, accountId);
  const recipients = await countRecipients(db, accountId, {
    includeListIds: campaign.includeListIds,
    excludeListIds: campaign.excludeListIds,
  });
  const costMillis = costOfEmailsMillis(recipients, account.priceMillis);
  return {
    recipients,
    priceMillis: account.priceMillis,
    costMillis,
    balanceMillis: account.balanceMillis,
    balanceAfterMillis: account.balanceMillis - costMillis,
    isBalanceSufficient: account.balanceMillis >= costMillis,
  };
}

/**
 * The public template viewer's data (spec §2): the campaign's HTML rendered generically (no contact, so merge
 * tags fall back to their defaults; the account's footer filled in). 404 in pt-BR for an unknown id. The web
 * shows it in a sandboxed iframe, never on our origin.
 */
export async function renderPublicCampaign(
  db: Db,
  id: string,
  publicUrl: string,
): Promise<{ id: string; name: string; subject: string; html: string }> {
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  if (!campaign) throw new AppError('not_found', 'Campanha não encontrada.');
  const account = await findAccount(db, campaign.createdBy);
  try {
    const compiled = compileCampaign({ subject: campaign.subject, html: campaign.template });
    const rendered = renderMessage(
      compiled,
      buildScope(
        { email: '', name: '' },
        account,
        { unsubscribeUrl: '#', browserUrl: `${publicUrl}/campaign/${id}/template-viewer` },
        campaign.name,
      ),
    );
    return { id: campaign.id, name: campaign.name, subject: rendered.subject, html: rendered.html };
  } catch {
    return { id: campaign.id, name: campaign.name, subject: campaign.subject, html: '' };
  }
}
