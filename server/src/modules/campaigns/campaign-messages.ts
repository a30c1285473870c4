import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { findAccount } from '../accounts/accounts.service';
import type { SigningResolver } from '../sender-identities/sender-signing';
import { type Outcome, skippedOutcome } from '../sending/batch-outcomes';
import { BodyProgram } from '../sending/body-program';
import { linkBaseUrl, type MessageEnvelope, messageLinks, verpAddress } from '../sending/build-message';
import type { DkimSigner } from '../sending/dkim/dkim-signer';
import { buildMimeMessage, buildMimeMessageFromParts, type MessageFrame } from '../sending/mime/build-message';
import type { SenderSettings } from '../sending/sender-settings';
import type { SigningGroup } from '../sending/sign-step';
import type { WireMessage } from '../sending/transport';
import { wireFrame } from '../sending/wire-message';
import { htmlLiquid, textLiquid } from '../templates/liquid-engine';
import {
  buildScope,
  type CompiledCampaign,
  compileCampaign,
  type RenderAccount,
  type RenderedMessage,
  renderMessage,
} from '../templates/render-message';
import {
  applyTracking,
  messageTrackingHooks,
  type PreparedTracking,
  prepareCampaignTracking,
  resolvePersonalisedLinks,
  trackMessageHtml,
} from '../tracking/campaign-links';
import type { ClaimedMessage } from './campaign-batches';
import { campaigns } from './campaigns.db';

/** A campaign's send-wide parts, prepared once: the compiled template and the shared header values. */
interface CampaignContext {
  id: string;
  name: string;
  compiled: CompiledCampaign;
  account: RenderAccount;
  envelope: MessageEnvelope;
  /** The pre-built MIME parts (mime/build-message.ts), set by prepareContext for every campaign. */
  frame: MessageFrame | null;
  /** The DKIM signers for this campaign's From domain (chosen once per campaign, keys cached per domain). */
  signers: DkimSigner[];
  /**
   * Base of every link of the campaign's messages (click, open pixel, unsubscribe, "ver no navegador",
   * List-Unsubscribe): the From domain's verified tracking host, else PUBLIC_URL. Chosen once per campaign.
   */
  linkBase: string;
  /** Click and open tracking, planned once (tracking/campaign-links.ts prepareCampaignTracking). */
  tracking: PreparedTracking;
  /**
   * The fast path (body-program.ts): both bodies as pre-encoded static parts + per-message values. Null for
   * `| raw` templates and for tracked links built with Liquid (string path).
   */
  programs: BodyPrograms | null;
}

interface BodyPrograms {
  html: BodyProgram;
  text: BodyProgram;
  subject: BodyProgram;
}

export interface CampaignMessagesDeps {
  db: Db;
  settings: SenderSettings;
  /** The platform's DKIM signers, used when there is no per-domain resolver. */
  signers?: DkimSigner[];
  /** Per From domain signing (sender-identities/sender-signing.ts): keys, bounce domain, tracking host. */
  signingFor?: SigningResolver;
}

/**
 * The build step of the pipeline for campaign batches: each claimed message rendered (per A/B variant),
 * tracked and built into its wire form on the campaign's frame, unsigned; grouped by the signers of the From
 * domain for the sign step. A campaign is prepared once per worker (its content cannot change once sending
 * started); the lanes of a process share one preparation.
 */
export class CampaignMessages {
  private readonly db: Db;
  private readonly settings: SenderSettings;
  private readonly contexts = new Map<string, Promise<CampaignContext>>();

  constructor(private readonly deps: CampaignMessagesDeps) {
    this.db = deps.db;
    this.settings = deps.settings;
  }

  /**
   * The batch's messages built into signing groups; a recipient the claim found ineligible is skipped with its
   * reason and a message that cannot be built fails (both into `outcomes`). An A/B test's batch mixes variants:
   * each group is built with its variant's context (subject, sender name, content); a normal campaign is one
   * group (variant null = the campaign as written).
   */
  async build(campaignId: string, claimed: ClaimedMessage[], outcomes: Outcome[]): Promise<SigningGroup[]> {
    const groups = new Map<number, ClaimedMessage[]>();
    for (const message of claimed) {
      if (message.skip_reason) {
        outcomes.push(skippedOutcome(message.id, message.skip_reason));
        continue;
      }
      const variant = message.variant ?? 0;
      const group = groups.get(variant);
      if (group) group.push(message);
      else groups.set(variant, [message]);
    }
    const built: SigningGroup[] = [];
    for (const [variant, group] of groups) {
      built.push(await this.buildGroup(await this.context(campaignId, variant), group, outcomes));
    }
    return built;
  }

  /** Drops the prepared contexts of a finished campaign. */
  forget(campaignId: string): void {
    for (const key of [...this.contexts.keys()]) if (key.startsWith(`${campaignId}:`)) this.contexts.delete(key);
  }

  /** Renders and builds one variant's messages of a batch, unsigned (failures into `outcomes`). */
  private async buildGroup(
    context: CampaignContext,
    group: ClaimedMessage[],
    outcomes: Outcome[],
  ): Promise<SigningGroup> {
    const wire: WireMessage[] = [];
    const rendered: { message: ClaimedMessage; content: RenderedMessage }[] = [];
    for (const message of group) {
      try {
        if (context.programs) wire.push(this.buildFast(context, context.programs, message));
        else rendered.push({ message, content: this.render(context, message) });
      } catch (error) {
        // A render that exceeds the Liquid limits for this contact's data: no retry can fix it.
        outcomes.push(final(message.id, 'failed', null, `erro ao montar a mensagem: ${(error as Error).message}`));
      }
    }
    // Links built with Liquid: the URLs not seen yet get their campaign_links rows in one statement.
    const linkIds =
      context.tracking.plan.personalised && rendered.length > 0
        ? await resolvePersonalisedLinks(
            this.db,
            context.tracking,
            rendered.map((r) => r.content.html),
          )
        : context.tracking.linkIds;
    for (const { message, content } of rendered) {
      try {
        const built = this.assemble(context, message, content, linkIds);
        wire.push(built instanceof Promise ? await built : built);
      } catch (error) {
        outcomes.push(final(message.id, 'failed', null, `erro ao montar a mensagem: ${(error as Error).message}`));
      }
    }
    return { signers: context.signers, wire };
  }

  /** The fast path: render, track and encode one message from the campaign's body programs. */
  private buildFast(context: CampaignContext, programs: BodyPrograms, message: ClaimedMessage): WireMessage {
    const links = messageLinks(context.linkBase, context.id, message.token);
    const contact = { email: message.email, name: message.name, fields: message.fields };
    const scope = buildScope(contact, context.account, links, context.name);
    const subject = programs.subject.renderString(scope).replace(/\s+/g, ' ').trim();
    const tracking = context.tracking;
    const html = programs.html.prepare(
      scope,
      tracking.plan.hasMarkers ? messageTrackingHooks(tracking, message.token) : null,
      tracking.plan.marker,
    );
    const text = programs.text.prepare(scope, null);
    const raw = buildMimeMessageFromParts(
      context.frame as MessageFrame,
      {
        messageId: message.token,
        to: message.email,
        toName: message.name,
        subject,
        unsubscribeUrl: links.unsubscribeUrl,
      },
      text,
      html,
    );
    return this.wireMessage(context, message, raw);
  }

  /** Liquid render of one message (the tracking markers of the prepared HTML source included). */
  private render(context: CampaignContext, message: ClaimedMessage): RenderedMessage {
    const links = messageLinks(context.linkBase, context.id, message.token);
    const contact = { email: message.email, name: message.name, fields: message.fields };
    return renderMessage(context.compiled, buildScope(contact, context.account, links, context.name));
  }

  /** Tracking and MIME of one rendered message; synchronous on the fast path (https PUBLIC_URL). */
  private assemble(
    context: CampaignContext,
    message: ClaimedMessage,
    rendered: RenderedMessage,
    linkIds: ReadonlyMap<string, number>,
  ): WireMessage | Promise<WireMessage> {
    if (context.tracking.plan.perMessage || !context.frame) return this.assembleSlow(context, message, rendered);
    const html = trackMessageHtml(context.tracking, rendered.html, message.token, linkIds);
    return this.wireMessage(context, message, buildCampaignMime(context, message, rendered, html));
  }

  /**
   * A template whose `| raw` outputs may carry anchors the source does not show (every rendered message
   * rewritten with applyTracking), built by the same MIME builder as the other paths.
   */
  private async assembleSlow(
    context: CampaignContext,
    message: ClaimedMessage,
    rendered: RenderedMessage,
  ): Promise<WireMessage> {
    const html = context.tracking.plan.perMessage
      ? await applyTracking(this.db, rendered.html, {
          campaignId: context.id,
          messageToken: message.token,
          publicUrl: context.linkBase,
        })
      : trackMessageHtml(context.tracking, rendered.html, message.token);
    return this.wireMessage(context, message, buildCampaignMime(context, message, rendered, html));
  }

  private wireMessage(context: CampaignContext, message: ClaimedMessage, raw: Buffer): WireMessage {
    return {
      id: String(message.id),
      envelopeFrom: verpAddress(message.token, context.envelope.bounceDomain),
      recipient: message.email,
      raw,
    };
  }

  /**
   * The campaign compiled once per worker (its content cannot change once sending started); the lanes of a
   * process share one preparation.
   */
  private context(campaignId: string, variant = 0): Promise<CampaignContext> {
    const key = `${campaignId}:${variant}`;
    let context = this.contexts.get(key);
    if (!context) {
      context = this.prepareContext(campaignId, variant);
      context.catch(() => this.contexts.delete(key));
      this.contexts.set(key, context);
    }
    return context;
  }

  /**
   * A campaign's send-wide parts; for an A/B variant (index ≥ 1, ADR 0020) its subject, and its sender name and
   * content when it has its own, replace the campaign's. Tracking, List-Id and Feedback-ID stay the campaign's.
   */
  private async prepareContext(campaignId: string, variant = 0): Promise<CampaignContext> {
    const [stored] = await this.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    if (!stored) throw new Error(`campaign ${campaignId} not found`);
    // Read through accounts' own function: once per campaign and variant (the context is cached).
    const account = await findAccount(this.db, stored.createdBy);
    if (!account) throw new Error(`campaign ${campaignId} has no account`);
    const override = variant > 0 ? stored.abTest?.variants[variant - 1] : undefined;
    if (variant > 0 && !override) throw new Error(`campaign ${campaignId} has no A/B variant ${variant}`);
    const campaign = override
      ? {
          ...stored,
          subject: override.subject,
          fromName: override.fromName ?? stored.fromName,
          template: override.template ?? stored.template,
        }
      : stored;
    const fromEmail = (campaign.fromEmail ?? account.defaultFromEmail) as string;
    const signing = this.deps.signingFor ? await this.deps.signingFor(account.id, fromEmail) : null;
    const linkBase = linkBaseUrl(this.settings.publicUrl, signing?.trackingHost);
    const tracking = await prepareCampaignTracking(this.db, {
      campaignId: campaign.id,
      html: campaign.template,
      publicUrl: linkBase,
    });
    // The text part comes from the template as written; the HTML from the source prepared for tracking.
    const compiled = compileCampaign({
      subject: campaign.subject,
      preheader: campaign.preheader,
      html: campaign.template,
    });
    // (`text: '-'` only skips the HTML-to-text conversion of the prepared source; that text is not used.)
    const trackedHtml = compileCampaign({
      subject: '',
      preheader: campaign.preheader,
      html: tracking.plan.source,
      text: '-',
    }).html;
    const context: CampaignContext = {
      id: campaign.id,
      name: campaign.name,
      compiled: { ...compiled, html: trackedHtml },
      tracking,
      account,
      envelope: {
        campaignId: campaign.id,
        accountId: account.id,
        fromName: campaign.fromName ?? account.defaultFromName ?? account.name,
        fromEmail,
        replyTo: campaign.replyTo,
        publicUrl: linkBase,
        bounceDomain: signing?.bounceDomain ?? this.settings.bounceDomain,
        listIdDomain: this.settings.listIdDomain,
      },
      frame: null,
      programs: null,
      signers: signing?.signers ?? this.deps.signers ?? [],
      linkBase,
    };
    // One MIME builder for every message, in development too (an http PUBLIC_URL only relaxes the https rule of
    // List-Unsubscribe): ADR 0011.
    context.frame = wireFrame({
      stream: 'marketing',
      fromEmail: context.envelope.fromEmail,
      fromName: context.envelope.fromName,
      replyTo: context.envelope.replyTo,
      sourceId: campaign.id,
      accountId: account.id,
      listIdDomain: this.settings.listIdDomain,
      publicUrl: this.settings.publicUrl,
    });
    if (!tracking.plan.perMessage && !tracking.plan.personalised) {
      context.programs = {
        html: new BodyProgram(trackedHtml, htmlLiquid, { marker: tracking.plan.marker }),
        text: new BodyProgram(compiled.text, textLiquid, { trim: true }),
        subject: new BodyProgram(compiled.subject, textLiquid),
      };
    }
    return context;
  }
}

function final(id: number, status: 'failed', code: number | null, response: string): Outcome {
  return { id, status, nextAttemptAt: null, code, enhancedCode: null, response, policy: false };
}

/** A campaign message's MIME through the account's frame, with its tracked HTML and its own unsubscribe link. */
function buildCampaignMime(
  context: CampaignContext,
  message: ClaimedMessage,
  rendered: RenderedMessage,
  html: string,
): Buffer {
  return buildMimeMessage(context.frame as MessageFrame, {
    messageId: message.token,
    to: message.email,
    toName: message.name,
    subject: rendered.subject,
    unsubscribeUrl: messageLinks(context.linkBase, context.id, message.token).unsubscribeUrl,
    text: rendered.text,
    html,
  });
}
