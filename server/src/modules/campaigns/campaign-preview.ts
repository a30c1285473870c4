import { abVariantLetter, type CampaignSummary, costOfEmailsMillis } from '@carteiro/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { Mailer } from '../../mail/mailer';
import { accounts } from '../accounts/accounts.db';
import { countRecipients } from '../contacts/count-recipients';
import { findContact } from '../contacts/find-contacts';
import { assertMayCauseMail, type MailCauser, type MailPolicyLimits } from '../mail-policy/assert-may-cause-mail';
import { campaignAudience } from '../segments/campaign-audience';
import { type PreviewResult, previewLinks, renderPreview, sendTestMessages } from '../templates/preview-message';
import { buildScope, compileCampaign, type RenderContact, renderMessage } from '../templates/render-message';
import { findUnsubscribeTarget } from '../unsubscribe/unsubscribe';
import { findCampaignRow } from './campaigns';
import { type CampaignRow, campaigns } from './campaigns.db';

async function findAccount(db: Db, accountId: string) {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new AppError('not_found', 'Conta não encontrada.');
  return account;
}

/**
 * The campaign rendered for one contact of the account (or sample data without `contactId`). 404 for a
 * contact of another account; 400 when the Liquid does not compile.
 */
export async function previewCampaign(
  db: Db,
  accountId: string,
  id: string,
  options: { contactId?: string; publicUrl: string; variant?: number },
): Promise<PreviewResult> {
  const campaign = await findCampaignRow(db, accountId, id);
  const variant = variantOf(campaign, options.variant);
  return renderPreview(
    db,
    accountId,
    {
      name: campaign.name,
      subject: variant?.subject ?? campaign.subject,
      preheader: campaign.preheader,
      html: variant?.template ?? campaign.template,
    },
    { contactId: options.contactId, links: previewLinks(options.publicUrl, `/campaign/${id}/template-viewer`) },
  );
}

/**
 * The A/B variant (B = 1…) whose subject and content replace the campaign's, or undefined for A; a variant the
 * campaign does not have is a pt-BR 400.
 */
function variantOf(campaign: CampaignRow, index: number | undefined) {
  if (!index) return undefined;
  const variant = campaign.abTest?.variants[index - 1];
  if (!variant) throw new AppError('validation_failed', `Esta campanha não tem a variante ${abVariantLetter(index)}.`);
  return { subject: variant.subject, template: variant.template ?? undefined };
}

/**
 * Sends the preview (contact or sample data) to up to 5 addresses with "[TESTE]" before the subject, once the
 * mail policy allows it (the campaign's From — or the account's default — verified, recipients and quota).
 */
export async function sendCampaignTest(
  db: Db,
  mailer: Mailer,
  policy: { causer: MailCauser; limits: MailPolicyLimits },
  id: string,
  options: { emails: string[]; contactId?: string; publicUrl: string; variant?: number },
): Promise<{ sent: number }> {
  const accountId = policy.causer.accountId;
  const campaign = await findCampaignRow(db, accountId, id);
  const fromEmail = campaign.fromEmail ?? (await findAccount(db, accountId)).defaultFromEmail;
  await assertMayCauseMail(db, policy.limits, policy.causer, {
    kind: 'campaign-test',
    from: fromEmail,
    recipients: options.emails,
  });
  const message = await previewCampaign(db, accountId, id, options);
  return sendTestMessages(mailer, message, {
    emails: options.emails,
    fallbackSubject: campaign.name,
    replyTo: campaign.replyTo ?? campaign.fromEmail,
  });
}

/** Recipient count, cost at the account's price and the balance left after sending (before the "Enviar" button). */
export async function summariseCampaign(db: Db, accountId: string, id: string): Promise<CampaignSummary> {
  const campaign = await findCampaignRow(db, accountId, id);
  const account = await findAccount(db, accountId);
  const recipients = await countRecipients(db, accountId, await campaignAudience(db, accountId, campaign));
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
 * The public template viewer's data (spec §2). Opened from an e-mail's "ver no navegador" link, `token` is the
 * message's unguessable token (the same one the unsubscribe link carries): when it names a message of this
 * campaign, the HTML is rendered for that recipient (their name and fields, their real unsubscribe link).
 * Without a token, or with one that does not match, it is rendered generically (merge tags fall back to their
 * defaults; the account's footer filled in) — an invalid token reveals nothing. 404 in pt-BR for an unknown id.
 * The web shows the HTML in a sandboxed iframe, never on our origin.
 */
export async function renderPublicCampaign(
  db: Db,
  id: string,
  publicUrl: string,
  token?: string,
): Promise<{ id: string; name: string; subject: string; html: string; personalised: boolean }> {
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  if (!campaign) throw new AppError('not_found', 'Campanha não encontrada.');
  const account = await findAccount(db, campaign.createdBy);
  const recipient = token ? await findViewerRecipient(db, campaign.id, campaign.createdBy, token) : null;
  const browserUrl = `${publicUrl}/campaign/${id}/template-viewer`;
  const links = recipient
    ? { unsubscribeUrl: `${publicUrl}/u/${recipient.token}`, browserUrl: `${browserUrl}?t=${recipient.token}` }
    : { unsubscribeUrl: '#', browserUrl };
  try {
    // An A/B recipient sees the variant they were sent (its subject, and its content when it has its own).
    const variant = recipient?.variant ? campaign.abTest?.variants[recipient.variant - 1] : undefined;
    const compiled = compileCampaign({
      subject: variant?.subject ?? campaign.subject,
      preheader: campaign.preheader,
      html: variant?.template ?? campaign.template,
    });
    const rendered = renderMessage(
      compiled,
      buildScope(recipient?.contact ?? { email: '', name: '' }, account, links, campaign.name),
    );
    return {
      id: campaign.id,
      name: campaign.name,
      subject: rendered.subject,
      html: rendered.html,
      personalised: recipient !== null,
    };
  } catch {
    return { id: campaign.id, name: campaign.name, subject: campaign.subject, html: '', personalised: false };
  }
}

/**
 * The recipient a viewer token names, when it is a message of this campaign; the contact's current data (name,
 * custom fields) when the contact still exists, else only the address the message went to.
 */
async function findViewerRecipient(
  db: Db,
  campaignId: string,
  accountId: string,
  token: string,
): Promise<{ token: string; contact: RenderContact; variant: number | null } | null> {
  const target = await findUnsubscribeTarget(db, token);
  if (!target || target.campaignId !== campaignId || target.accountId !== accountId) return null;
  if (target.contactId) {
    try {
      const contact = await findContact(db, accountId, target.contactId);
      return {
        token,
        contact: { email: contact.email, name: contact.name, fields: contact.fields },
        variant: target.variant,
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return { token, contact: { email: target.email }, variant: target.variant };
}
