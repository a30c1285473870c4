import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { notFound } from '../../http/not-found';
import { findAccount } from '../accounts/accounts.service';
import { findContact } from '../contacts/find-contacts';
import { buildScope, type RenderContact } from '../templates/render-message';
import { renderUntrusted } from '../templates/untrusted-render';
import { type CampaignRow, campaigns } from './campaigns.db';
import { findUnsubscribeTarget } from './message-recipient';

/** What the public viewer answers: the campaign's subject and HTML, for one recipient or anyone. */
export interface PublicCampaignView {
  id: string;
  name: string;
  subject: string;
  html: string;
  personalised: boolean;
}

/** Statuses whose content recipients have (or will have) in their inbox: only those are public. */
const PUBLIC_STATUSES = new Set<CampaignRow['status']>(['scheduled', 'sending', 'paused', 'sent']);

/** Viewer requests one client address may make per minute (a recipient opens it once or twice). */
export const PUBLIC_VIEWER_PER_MINUTE = 60;

/** The generic view of a campaign, rendered once and kept this long (and while the campaign is unchanged). */
const CACHE_TTL_MS = 5 * 60_000;
const CACHE_ENTRIES = 1_000;
/** The render in flight or done: requests arriving together for an uncached campaign share one render. */
const cache = new Map<string, { updatedAtMs: number; expiresAtMs: number; view: Promise<PublicCampaignView> }>();

/**
 * The public template viewer's data (spec §2, "ver no navegador"). Public means no login, so it shows only what
 * recipients have or will have: a scheduled, sending, paused or sent campaign — or one cancelled or failed after
 * its sending began — and never a draft or the hidden transactional stream (404, as for an unknown id, so a draft's
 * existence is not revealed). With `token` — the message's unguessable token, the one the unsubscribe link carries
 * — of a message of this campaign, it is rendered for that recipient (name, fields, real unsubscribe link, their A/B
 * variant); without one, or with one that does not match, generically (merge tags fall back to their defaults),
 * and that generic view is rendered once per campaign (requests arriving together share the render) and kept until
 * the campaign changes or 5 minutes pass. Renders run in the render pool
 * (a hostile template stalls nothing); a template that fails shows an empty page. The web shows the HTML in a
 * sandboxed iframe, never on our origin.
 */
export async function renderPublicCampaign(
  db: Db,
  id: string,
  publicUrl: string,
  token?: string,
): Promise<PublicCampaignView> {
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  if (!campaign || !isPublic(campaign)) throw notFound('campaign');
  const recipient = token ? await findViewerRecipient(db, campaign.id, campaign.createdBy, token) : null;
  if (recipient) return renderView(db, campaign, publicUrl, recipient);
  const cached = cache.get(campaign.id);
  const now = Date.now();
  if (cached && cached.updatedAtMs === campaign.updatedAt.getTime() && cached.expiresAtMs > now) return cached.view;
  const view = renderView(db, campaign, publicUrl, null);
  cache.delete(campaign.id);
  cache.set(campaign.id, { updatedAtMs: campaign.updatedAt.getTime(), expiresAtMs: now + CACHE_TTL_MS, view });
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  // A failure to read the account (not the template's) is not kept: the next request tries again.
  view.catch(() => {
    if (cache.get(campaign.id)?.view === view) cache.delete(campaign.id);
  });
  return view;
}

function isPublic(campaign: CampaignRow): boolean {
  if (campaign.kind !== 'campaign') return false;
  return PUBLIC_STATUSES.has(campaign.status) || campaign.startedAt !== null;
}

async function renderView(
  db: Db,
  campaign: CampaignRow,
  publicUrl: string,
  recipient: ViewerRecipient | null,
): Promise<PublicCampaignView> {
  const account = await findAccount(db, campaign.createdBy);
  if (!account) throw notFound('campaign');
  const browserUrl = `${publicUrl}/campaign/${campaign.id}/template-viewer`;
  const links = recipient
    ? { unsubscribeUrl: `${publicUrl}/u/${recipient.token}`, browserUrl: `${browserUrl}?t=${recipient.token}` }
    : { unsubscribeUrl: '#', browserUrl };
  // An A/B recipient sees the variant they were sent (its subject, and its content when it has its own).
  const variant = recipient?.variant ? campaign.abTest?.variants[recipient.variant - 1] : undefined;
  try {
    const rendered = await renderUntrusted(
      {
        subject: variant?.subject ?? campaign.subject,
        preheader: campaign.preheader,
        html: variant?.template ?? campaign.template,
      },
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
    // The viewer is a recipient's page: a template that cannot render (or ran out of time) shows nothing rather
    // than an error about the sender's Liquid. The sender saw the same failure, in pt-BR, in the preview.
    return { id: campaign.id, name: campaign.name, subject: campaign.subject, html: '', personalised: false };
  }
}

interface ViewerRecipient {
  token: string;
  contact: RenderContact;
  variant: number | null;
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
): Promise<ViewerRecipient | null> {
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
