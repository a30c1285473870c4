import { abVariantLetter, type CampaignSummary, costOfEmailsMillis } from '@carteiro/shared';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { notFound } from '../../http/not-found';
import type { Mailer } from '../../mail/mailer';
import { findAccount } from '../accounts/accounts.service';
import { countRecipients } from '../contacts/count-recipients';
import { assertMayCauseMail, type MailCauser, type MailPolicyLimits } from '../mail-policy/assert-may-cause-mail';
import { type PreviewResult, previewLinks, renderPreview, sendTestMessages } from '../templates/preview-message';
import { campaignAudience } from './campaign-audience';
import { findCampaignRow } from './campaigns';
import type { CampaignRow } from './campaigns.db';

async function findAccountOr404(db: Db, accountId: string) {
  const account = await findAccount(db, accountId);
  if (!account) throw notFound('account');
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
  const account = await findAccountOr404(db, accountId);
  // The real send's sender (campaigns/campaign-sender.ts), checked by the same rule before anything is rendered.
  const fromEmail = campaign.fromEmail ?? account.defaultFromEmail;
  await assertMayCauseMail(db, policy.limits, policy.causer, {
    kind: 'campaign-test',
    from: fromEmail,
    recipients: options.emails,
  });
  const message = await previewCampaign(db, accountId, id, options);
  return sendTestMessages(mailer, message, {
    emails: options.emails,
    fallbackSubject: campaign.name,
    sender: {
      accountId,
      fromEmail: fromEmail as string,
      fromName: campaign.fromName ?? account.defaultFromName ?? account.name,
      replyTo: campaign.replyTo,
      sourceId: campaign.id,
      unsubscribeUrl: previewLinks(options.publicUrl, '').unsubscribeUrl,
    },
  });
}

/** Recipient count, cost at the account's price and the balance left after sending (before the "Enviar" button). */
export async function summariseCampaign(db: Db, accountId: string, id: string): Promise<CampaignSummary> {
  const campaign = await findCampaignRow(db, accountId, id);
  const account = await findAccountOr404(db, accountId);
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
