import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { accounts } from '../accounts/accounts.db';
import { campaigns } from '../campaigns/campaigns.db';
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
import { BodyProgram } from './body-program';
import { buildMessage, type MessageEnvelope, messageLinks, verpAddress } from './build-message';
import { finishCampaignIfDone, notifyCampaignSent, transitionCampaignStatus } from './campaign-controls';
import type { DkimSigner } from './dkim/dkim-signer';
import { campaignSends } from './messages.db';
import {
  buildMimeMessage,
  buildMimeMessageFromParts,
  createMessageFrame,
  type MessageFrame,
} from './mime/build-message';
import { startDueCampaigns } from './start-campaign-send';
import type { DeliveryOutcome, MailTransport, WireMessage } from './transport';

/** The engine's settings (config.ts SENDING_*), in the units the code uses. */
export interface SenderSettings {
  batchSize: number;
  concurrency: number;
  ratePerRelay: number;
  retryBaseSeconds: number;
  retryMaxSeconds: number;
  retryWindowSeconds: number;
  pauseAfterErrors: number;
  leaseSeconds: number;
  pollMs: number;
  scheduleSweepSeconds: number;
  publicUrl: string;
  bounceDomain: string;
  listIdDomain: string;
}

export interface SenderDeps {
  db: Db;
  /** One transport per relay; batches are spread over them. */
  transports: MailTransport[];
  settings: SenderSettings;
  logger: Logger;
  /** The app's own mailer, for the "campanha enviada" notice. */
  mailer: Mailer | null;
  /** DKIM signers (RSA and/or Ed25519); each adds its DKIM-Signature. */
  signers?: DkimSigner[];
  workerId?: string;
}

/** A campaign's send-wide parts, prepared once: the compiled template and the shared header values. */
interface CampaignContext {
  id: string;
  name: string;
  compiled: CompiledCampaign;
  account: RenderAccount;
  envelope: MessageEnvelope;
  /** The pre-built MIME parts (mime/build-message.ts); null when PUBLIC_URL is not https (development). */
  frame: MessageFrame | null;
  /** Click and open tracking, planned once (tracking/campaign-links.ts prepareCampaignTracking). */
  tracking: PreparedTracking;
  /**
   * The fast path (body-program.ts): both bodies as pre-encoded static parts + per-message values. Null in
   * development (no frame), for `| raw` templates and for tracked links built with Liquid (string path).
   */
  programs: BodyPrograms | null;
}

interface BodyPrograms {
  html: BodyProgram;
  text: BodyProgram;
  subject: BodyProgram;
}

interface ClaimedMessage {
  id: number;
  email: string;
  token: string;
  attempts: number;
  /** The message row's created_at, ms since the epoch (the retry window starts there). */
  created_ms: number;
  name: string | null;
  fields: Record<string, unknown> | null;
  /** Unsubscribed, bounced, complained, suppressed, left every included list, or deleted since the snapshot. */
  blocked: boolean;
}

interface Outcome {
  id: number;
  status: 'queued' | 'sent' | 'failed' | 'skipped';
  nextAttemptAt: Date | null;
  code: number | null;
  enhancedCode: string | null;
  response: string;
  policy: boolean;
}

/** Waits so that a relay never gets more than `rate` messages per second from this process (0 = no limit). */
class RateLimiter {
  private next = 0;
  constructor(private readonly rate: number) {}
  async take(count: number): Promise<void> {
    if (this.rate <= 0) return;
    const now = Date.now();
    const start = Math.max(now, this.next);
    this.next = start + (count / this.rate) * 1000;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A lane hands back to the manager this often, so new campaigns, leases and schedules are looked at. */
const LANE_SLICE_MS = 5_000;

/**
 * The sending engine of one worker process (listmonk's manager + pipe; keila's message states).
 * 1. Every poll the manager re-queues messages whose lease expired (their worker died), starts scheduled
 *    campaigns that are due, and lists the campaigns in status sending.
 * 2. `concurrency` lanes each claim a batch of due queued messages with FOR UPDATE SKIP LOCKED (so any number
 *    of workers share a campaign without overlap), skip contacts unsubscribed or suppressed since the snapshot,
 *    render and build each message, and deliver the batch through their relay.
 * 3. The batch's outcomes are recorded in one transaction with the campaign counters: 2xx sent, 4xx or no reply
 *    queued again with exponential back-off (failed past the retry window), 5xx failed (5.7.x flagged policy);
 *    too many consecutive connection-level failures pause the campaign with a pt-BR reason.
 * 4. Pause, resume and cancel are status changes; a lane only claims from a campaign in status sending, so
 *    they take effect at the next batch.
 * 5. A campaign with no queued or in-flight message left is finished exactly once: status sent, reservation
 *    settled for the messages marked sent, "campanha enviada" e-mailed to the owner.
 *
 * Crash safety and the in-flight window: a message is marked sent only in the transaction that records its
 * batch, so the ledger (settled from the rows) always matches the messages marked sent. A worker killed between
 * the relay's 250 and that transaction leaves its claimed rows in status sending; after SENDING_LEASE_SECONDS
 * any worker re-queues and re-sends them. So at most SENDING_BATCH_SIZE × SENDING_CONCURRENCY messages per
 * killed worker (its batches in flight) can be delivered twice, and nothing else. The lease must stay longer
 * than the slowest batch delivery (SMTP timeouts are well below the 120 s default).
 */
export class CampaignSender {
  readonly workerId: string;
  private readonly db: Db;
  private readonly settings: SenderSettings;
  private readonly logger: Logger;
  private readonly limiters: RateLimiter[];
  private readonly contexts = new Map<string, Promise<CampaignContext>>();
  /** Per campaign, the highest message id this process claimed (see claimAfter). */
  private readonly cursors = new Map<string, number>();
  private stopped = false;
  private loop: Promise<void> | null = null;
  private lastSweep = 0;

  constructor(private readonly deps: SenderDeps) {
    if (deps.transports.length === 0) throw new Error('the sender needs at least one transport');
    this.db = deps.db;
    this.settings = deps.settings;
    this.logger = deps.logger;
    this.workerId = deps.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.limiters = deps.transports.map(() => new RateLimiter(deps.settings.ratePerRelay));
  }

  /** Starts the manager loop in the background. */
  start(): void {
    if (this.loop) return;
    this.stopped = false;
    this.loop = (async () => {
      while (!this.stopped) {
        let worked = false;
        try {
          worked = await this.tick();
        } catch (error) {
          this.logger.error({ err: error }, 'sending engine: tick failed');
        }
        if (!worked && !this.stopped) await sleep(this.settings.pollMs);
      }
    })();
  }

  /** Stops claiming; resolves once the batches in flight are delivered and recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    this.loop = null;
  }

  /** One round of the manager. True when some message was processed (the loop then goes on at once). */
  async tick(): Promise<boolean> {
    await this.requeueExpiredLeases();
    if (Date.now() - this.lastSweep >= this.settings.scheduleSweepSeconds * 1000) {
      this.lastSweep = Date.now();
      await startDueCampaigns(this.db, (campaignId, error) =>
        this.logger.warn({ err: error, campaignId }, 'scheduled campaign could not start; back to draft'),
      );
    }
    const active = (
      await this.db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.status, 'sending'))
    ).map((row) => row.id);

    let processed = 0;
    if (active.length > 0) {
      const lanes = Array.from({ length: this.settings.concurrency }, (_, lane) => this.runLane(lane, active));
      processed = (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
    }
    await this.finishDone(active);
    return processed > 0;
  }

  /** Claims and delivers batches round-robin over the active campaigns until none has due messages. */
  private async runLane(lane: number, campaignIds: string[]): Promise<number> {
    const relay = lane % this.deps.transports.length;
    const until = Date.now() + LANE_SLICE_MS;
    let total = 0;
    while (!this.stopped && Date.now() < until) {
      let round = 0;
      for (const campaignId of campaignIds) {
        if (this.stopped) break;
        round += await this.sendBatch(campaignId, relay);
      }
      if (round === 0) break;
      total += round;
    }
    return total;
  }

  /** One batch of one campaign, claim → skip → render → deliver → record. Returns the messages processed. */
  async sendBatch(campaignId: string, relay = 0): Promise<number> {
    const claimed = await this.claim(campaignId);
    if (claimed.length === 0) return 0;
    const context = await this.context(campaignId);

    const outcomes: Outcome[] = [];
    const rendered: { message: ClaimedMessage; content: RenderedMessage }[] = [];
    const wire: WireMessage[] = [];
    for (const message of claimed) {
      if (message.blocked) {
        outcomes.push(final(message.id, 'skipped', null, 'destinatário descadastrado ou suprimido antes do envio'));
        continue;
      }
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

    let delivered: DeliveryOutcome[] = [];
    if (wire.length > 0) {
      await this.limiters[relay]?.take(wire.length);
      const transport = this.deps.transports[relay] as MailTransport;
      try {
        delivered = await transport.deliver(wire);
      } catch (error) {
        const response = `sem resposta do servidor: ${(error as Error).message}`;
        delivered = wire.map((m) => ({
          id: m.id,
          kind: 'temporary',
          policy: false,
          code: null,
          enhancedCode: null,
          response,
        }));
      }
    }
    const byId = new Map(claimed.map((m) => [String(m.id), m]));
    for (const outcome of delivered) {
      const message = byId.get(outcome.id);
      if (message) outcomes.push(this.outcomeOf(message, outcome));
    }
    const connectionFailure = delivered.length > 0 && delivered.every(isRelayFailure);
    await this.record(
      campaignId,
      outcomes,
      delivered.some((o) => o.kind === 'sent'),
      connectionFailure,
      delivered[0]?.response,
    );
    return claimed.length;
  }

  /**
   * Claims up to batchSize due queued messages of a campaign that is still sending. SKIP LOCKED lets concurrent
   * workers take disjoint batches; claimed_at starts the lease. The contact is re-read here, so personalisation
   * uses current data and a contact unsubscribed or suppressed since the snapshot is caught.
   */
  private async claim(campaignId: string): Promise<ClaimedMessage[]> {
    const cursor = this.cursors.get(campaignId) ?? 0;
    const claimed = await this.claimAfter(campaignId, cursor);
    if (claimed.length > 0) {
      this.cursors.set(campaignId, Math.max(this.cursors.get(campaignId) ?? 0, claimed[claimed.length - 1]?.id ?? 0));
      return claimed;
    }
    if (cursor === 0) return claimed;
    // Nothing after the cursor: one full pass from the start picks up retries and re-queued (lease) messages.
    this.cursors.set(campaignId, 0);
    return this.claimAfter(campaignId, 0);
  }

  /**
   * `id > after` keeps the index scan from wading through the entries of messages already claimed (dead in
   * the partial index until vacuum), which would make each claim slower as the campaign advances.
   */
  private async claimAfter(campaignId: string, after: number): Promise<ClaimedMessage[]> {
    const rows = await queryRows<ClaimedMessage>(
      this.db,
      sql`with claimed as (
            update messages m
               set status = 'sending', claimed_by = ${this.workerId}, claimed_at = now(), attempts = m.attempts + 1
             where m.id in (
                     select id from messages
                      where campaign_id = ${campaignId} and status = 'queued' and id > ${after}
                        and next_attempt_at <= now()
                      order by id
                      limit ${this.settings.batchSize}
                      for update skip locked)
               and exists (select 1 from campaigns c where c.id = ${campaignId} and c.status = 'sending')
            returning m.id, m.email, m.token, m.attempts, m.created_at, m.contact_id, m.account_id)
          select claimed.id, claimed.email, claimed.token, claimed.attempts,
                 (extract(epoch from claimed.created_at) * 1000)::float8 as created_ms, ct.name, ct.fields,
                 (ct.id is null
                  or ct.status <> 'subscribed'
                  or not exists (select 1 from list_memberships lm, campaigns cp
                                  where cp.id = ${campaignId} and lm.contact_id = ct.id and lm.status = 'subscribed'
                                    and lm.list_id = any(cp.include_list_ids))
                  or exists (select 1 from suppressions s where s.account_id = claimed.account_id
                              and s.email_hash = encode(sha256(convert_to(claimed.email, 'UTF8')), 'hex'))) as blocked
            from claimed left join contacts ct on ct.id = claimed.contact_id
           order by claimed.id`,
    );
    // bigint ids arrive as number (pg) or bigint/string (PGlite): one type from here on.
    for (const row of rows) {
      row.id = Number(row.id);
      row.attempts = Number(row.attempts);
      row.created_ms = Number(row.created_ms);
    }
    return rows;
  }

  /** The fast path: render, track, encode and sign one message from the campaign's body programs. */
  private buildFast(context: CampaignContext, programs: BodyPrograms, message: ClaimedMessage): WireMessage {
    const links = messageLinks(this.settings.publicUrl, context.id, message.token);
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
    let raw = buildMimeMessageFromParts(
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
    for (const signer of this.deps.signers ?? []) raw = signer.sign(raw);
    return this.wireMessage(message, raw);
  }

  /** Liquid render of one message (the tracking markers of the prepared HTML source included). */
  private render(context: CampaignContext, message: ClaimedMessage): RenderedMessage {
    const links = messageLinks(this.settings.publicUrl, context.id, message.token);
    const contact = { email: message.email, name: message.name, fields: message.fields };
    return renderMessage(context.compiled, buildScope(contact, context.account, links, context.name));
  }

  /** Tracking, MIME and DKIM of one rendered message; synchronous on the fast path (https PUBLIC_URL). */
  private assemble(
    context: CampaignContext,
    message: ClaimedMessage,
    rendered: RenderedMessage,
    linkIds: ReadonlyMap<string, number>,
  ): WireMessage | Promise<WireMessage> {
    if (context.tracking.plan.perMessage || !context.frame) return this.assembleSlow(context, message, rendered);
    const html = trackMessageHtml(context.tracking, rendered.html, message.token, linkIds);
    let raw = buildMimeMessage(context.frame, {
      messageId: message.token,
      to: message.email,
      toName: message.name,
      subject: rendered.subject,
      unsubscribeUrl: messageLinks(this.settings.publicUrl, context.id, message.token).unsubscribeUrl,
      text: rendered.text,
      html,
    });
    for (const signer of this.deps.signers ?? []) raw = signer.sign(raw);
    return this.wireMessage(message, raw);
  }

  /**
   * Development (http PUBLIC_URL: nodemailer's composer) or a template whose `| raw` outputs may carry anchors
   * the source does not show (every rendered message rewritten with applyTracking).
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
          publicUrl: this.settings.publicUrl,
        })
      : trackMessageHtml(context.tracking, rendered.html, message.token);
    const withTracking = { ...rendered, html };
    let raw = context.frame
      ? buildMimeMessage(context.frame, {
          messageId: message.token,
          to: message.email,
          toName: message.name,
          subject: rendered.subject,
          unsubscribeUrl: messageLinks(this.settings.publicUrl, context.id, message.token).unsubscribeUrl,
          text: rendered.text,
          html,
        })
      : await buildMessage(
          context.envelope,
          { email: message.email, name: message.name, token: message.token },
          withTracking,
        );
    for (const signer of this.deps.signers ?? []) raw = signer.sign(raw);
    return this.wireMessage(message, raw);
  }

  private wireMessage(message: ClaimedMessage, raw: Buffer): WireMessage {
    return {
      id: String(message.id),
      envelopeFrom: verpAddress(message.token, this.settings.bounceDomain),
      recipient: message.email,
      raw,
    };
  }

  /** What a delivery outcome means for the message (standards.md "Bounces": retry 4xx, never 5xx). */
  private outcomeOf(message: ClaimedMessage, outcome: DeliveryOutcome): Outcome {
    const reply = { code: outcome.code, enhancedCode: outcome.enhancedCode, response: outcome.response };
    if (outcome.kind === 'sent')
      return { id: message.id, status: 'sent', nextAttemptAt: null, policy: false, ...reply };
    if (outcome.kind === 'permanent') {
      return { id: message.id, status: 'failed', nextAttemptAt: null, policy: outcome.policy, ...reply };
    }
    const { retryBaseSeconds, retryMaxSeconds, retryWindowSeconds } = this.settings;
    const delay = Math.min(retryBaseSeconds * 2 ** Math.max(0, message.attempts - 1), retryMaxSeconds) * 1000;
    const next = new Date(Date.now() + delay);
    const giveUpAt = message.created_ms + retryWindowSeconds * 1000;
    if (next.getTime() > giveUpAt)
      return { id: message.id, status: 'failed', nextAttemptAt: null, policy: false, ...reply };
    return { id: message.id, status: 'queued', nextAttemptAt: next, policy: false, ...reply };
  }

  /**
   * Writes a batch's outcomes in one UPDATE … FROM jsonb_to_recordset(…) and the campaign counters in the same
   * transaction, so counters always equal the rows. Only rows this worker still holds are written: a row
   * whose lease expired and was re-claimed belongs to the other worker now. claimed_by is kept as a record of
   * which worker delivered the message.
   */
  private async record(
    campaignId: string,
    outcomes: Outcome[],
    anySent: boolean,
    connectionFailure: boolean,
    lastResponse: string | undefined,
  ): Promise<void> {
    if (outcomes.length === 0) return;
    // One JSON parameter expanded into rows: a short statement whatever the batch size.
    const rows = JSON.stringify(
      outcomes.map((o) => ({
        id: o.id,
        status: o.status,
        next_at: o.nextAttemptAt?.toISOString() ?? null,
        code: o.code,
        enhanced: o.enhancedCode,
        response: o.response.slice(0, 1000),
        policy: o.policy,
      })),
    );
    if (!connectionFailure || anySent) {
      // The common case in one statement (atomic by itself: no BEGIN/COMMIT round trips, row locks on the
      // campaign held only for the statement): the outcomes, the counters, and the error streak reset (written
      // only when it is not 0 already, so lanes do not queue on that row for nothing).
      await this.db.execute(
        sql`with written as (
              update messages m
                 set status = v.status,
                     next_attempt_at = coalesce(v.next_at, m.next_attempt_at),
                     smtp_code = v.code, enhanced_code = v.enhanced, response = v.response, policy = v.policy,
                     sent_at = case when v.status = 'sent' then now() else m.sent_at end,
                     claimed_at = null -- claimed_by stays: which worker delivered it
                from jsonb_to_recordset(${rows}::jsonb)
                     as v(id bigint, status text, next_at timestamptz, code int, enhanced text, response text, policy boolean)
               where m.id = v.id and m.status = 'sending' and m.claimed_by = ${this.workerId}
              returning m.status),
            counts as (
              select count(*) filter (where status = 'sent')::int as sent,
                     count(*) filter (where status = 'failed')::int as failed
                from written),
            counters as (
              update campaigns c set sent_count = c.sent_count + counts.sent, failed_count = c.failed_count + counts.failed
                from counts
               where c.id = ${campaignId} and (counts.sent > 0 or counts.failed > 0)
              returning 1),
            streak as (
              update campaign_sends set consecutive_errors = 0
               where campaign_id = ${campaignId} and ${anySent} and consecutive_errors <> 0
              returning 1)
          select (select count(*) from counters) as counters, (select count(*) from streak) as streak`,
      );
      return;
    }
    await this.db.transaction(async (tx) => {
      // The counts come back as one row (not one row per message for the driver to parse).
      const [written] = await queryRows<{ sent: number | string; failed: number | string }>(
        tx as unknown as Db,
        sql`with written as (
              update messages m
                 set status = v.status,
                     next_attempt_at = coalesce(v.next_at, m.next_attempt_at),
                     smtp_code = v.code, enhanced_code = v.enhanced, response = v.response, policy = v.policy,
                     sent_at = case when v.status = 'sent' then now() else m.sent_at end,
                     claimed_at = null -- claimed_by stays: which worker delivered it
                from jsonb_to_recordset(${rows}::jsonb)
                     as v(id bigint, status text, next_at timestamptz, code int, enhanced text, response text, policy boolean)
               where m.id = v.id and m.status = 'sending' and m.claimed_by = ${this.workerId}
              returning m.status)
            select count(*) filter (where status = 'sent')::int as sent,
                   count(*) filter (where status = 'failed')::int as failed
              from written`,
      );
      const sent = Number(written?.sent ?? 0);
      const failed = Number(written?.failed ?? 0);
      if (sent > 0 || failed > 0) {
        await tx
          .update(campaigns)
          .set({
            sentCount: sql`${campaigns.sentCount} + ${sent}`,
            failedCount: sql`${campaigns.failedCount} + ${failed}`,
          })
          .where(eq(campaigns.id, campaignId));
      }
      if (connectionFailure) {
        const [row] = await tx
          .update(campaignSends)
          .set({ consecutiveErrors: sql`${campaignSends.consecutiveErrors} + 1` })
          .where(eq(campaignSends.campaignId, campaignId))
          .returning({ errors: campaignSends.consecutiveErrors });
        if (row && row.errors >= this.settings.pauseAfterErrors) {
          const reason = `Pausada automaticamente: o servidor de envio falhou ${row.errors} vezes seguidas (${(lastResponse ?? 'sem resposta').slice(0, 200)}). Verifique o servidor SMTP e retome a campanha.`;
          if (await transitionCampaignStatus(tx as unknown as Db, campaignId, ['sending'], 'paused')) {
            await tx
              .update(campaignSends)
              .set({ pausedReason: reason })
              .where(eq(campaignSends.campaignId, campaignId));
            this.logger.error({ campaignId, errors: row.errors, lastResponse }, 'campaign paused: relay failing');
          }
        }
      }
    });
  }

  /** Messages claimed by a worker that died (lease expired) go back to the queue. */
  private async requeueExpiredLeases(): Promise<void> {
    const rows = await queryRows<{ id: number }>(
      this.db,
      sql`update messages set status = 'queued', claimed_by = null, claimed_at = null
           where status = 'sending' and claimed_at < now() - make_interval(secs => ${this.settings.leaseSeconds})
          returning id`,
    );
    if (rows.length > 0)
      this.logger.warn({ count: rows.length }, 'sending engine: re-queued messages of an expired lease');
  }

  /** Finishes the active campaigns with nothing left, and cancelled ones whose in-flight messages are recorded. */
  private async finishDone(active: string[]): Promise<void> {
    const cancelled = await queryRows<{ campaign_id: string }>(
      this.db,
      sql`select cs.campaign_id from campaign_sends cs join campaigns c on c.id = cs.campaign_id
           where cs.settled_at is null and c.status = 'cancelled'`,
    );
    for (const campaignId of [...active, ...cancelled.map((r) => r.campaign_id)]) {
      const result = await finishCampaignIfDone(this.db, campaignId);
      if (!result) continue;
      this.contexts.delete(campaignId);
      this.logger.info({ campaignId, ...result }, 'campaign finished');
      if (result.status === 'sent') {
        await notifyCampaignSent(this.db, this.deps.mailer, this.logger, campaignId, result, this.settings.publicUrl);
      }
    }
  }

  /**
   * The campaign compiled once per worker (its content cannot change once sending started); the lanes of a
   * process share one preparation.
   */
  private context(campaignId: string): Promise<CampaignContext> {
    let context = this.contexts.get(campaignId);
    if (!context) {
      context = this.prepareContext(campaignId);
      context.catch(() => this.contexts.delete(campaignId));
      this.contexts.set(campaignId, context);
    }
    return context;
  }

  private async prepareContext(campaignId: string): Promise<CampaignContext> {
    const [row] = await this.db
      .select({ campaign: campaigns, account: accounts })
      .from(campaigns)
      .innerJoin(accounts, eq(accounts.id, campaigns.createdBy))
      .where(eq(campaigns.id, campaignId));
    if (!row) throw new Error(`campaign ${campaignId} not found`);
    const { campaign, account } = row;
    const tracking = await prepareCampaignTracking(this.db, {
      campaignId: campaign.id,
      html: campaign.template,
      publicUrl: this.settings.publicUrl,
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
        fromEmail: (campaign.fromEmail ?? account.defaultFromEmail) as string,
        replyTo: campaign.replyTo,
        publicUrl: this.settings.publicUrl,
        bounceDomain: this.settings.bounceDomain,
        listIdDomain: this.settings.listIdDomain,
      },
      frame: null,
      programs: null,
    };
    if (this.settings.publicUrl.startsWith('https://')) {
      context.frame = createMessageFrame({
        fromEmail: context.envelope.fromEmail,
        fromName: context.envelope.fromName,
        replyTo: context.envelope.replyTo,
        listId: `${campaign.id}.${this.settings.listIdDomain}`,
        feedbackId: `${campaign.id}:${account.id}:campaign:carteiro`,
        messageIdDomain: this.settings.listIdDomain,
        extraHeaders: { Precedence: 'bulk' },
      });
      if (!tracking.plan.perMessage && !tracking.plan.personalised) {
        context.programs = {
          html: new BodyProgram(trackedHtml, htmlLiquid, { marker: tracking.plan.marker }),
          text: new BodyProgram(compiled.text, textLiquid, { trim: true }),
          subject: new BodyProgram(compiled.subject, textLiquid),
        };
      }
    }
    return context;
  }
}

/**
 * The relay, not the recipient, failed: no reply (connection refused or lost, timeout), 421 (service closing),
 * or a 5xx the transport reported as temporary (an AUTH refusal answers every queued message that way).
 */
function isRelayFailure(outcome: DeliveryOutcome): boolean {
  return outcome.kind === 'temporary' && (outcome.code === null || outcome.code === 421 || outcome.code >= 500);
}

function final(id: number, status: 'failed' | 'skipped', code: number | null, response: string): Outcome {
  return { id, status, nextAttemptAt: null, code, enhancedCode: null, response, policy: false };
}
