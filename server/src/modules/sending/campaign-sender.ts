import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { SkipReason } from '@carteiro/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { accounts } from '../accounts/accounts.db';
import { decideDueAbTests } from '../campaigns/ab-test';
import { finishCampaignIfDone, notifyCampaignSent, transitionCampaignStatus } from '../campaigns/campaign-controls';
import { campaignSends } from '../campaigns/campaign-sends.db';
import { campaigns } from '../campaigns/campaigns.db';
import { startDueCampaigns } from '../campaigns/start-campaign-send';
import { audienceLists } from '../contacts/count-recipients';
import { ineligibilityReasonSql } from '../contacts/recipient-eligibility';
import { campaignAudience } from '../segments/campaign-audience';
import type { SigningResolver } from '../sender-identities/sender-signing';
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
import { TransactionalLanes } from '../transactional/transactional-lanes';
import { emitCampaignEvent } from '../webhooks/emit-event';
import { BatchLeases } from './batch-leases';
import { deliveryOutcome, type Outcome, recordBatchOutcomes, skippedOutcome } from './batch-outcomes';
import { BodyProgram } from './body-program';
import { linkBaseUrl, type MessageEnvelope, messageLinks, verpAddress } from './build-message';
import { type DkimSigner, signChain } from './dkim/dkim-signer';
import type { DkimSigningPool } from './dkim/signing-pool';
import { buildMimeMessage, buildMimeMessageFromParts, type MessageFrame } from './mime/build-message';
import type { SenderSettings } from './sender-settings';
import type { DeliveryOutcome, MailTransport, WireMessage } from './transport';
import { wireFrame } from './wire-message';

export type { SenderSettings } from './sender-settings';

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
  /**
   * Signing threads (dkim/signing-pool.ts): a batch's messages are built on this thread and signed there, on
   * every core; without it each message is signed here as it is built.
   */
  signingPool?: DkimSigningPool;
  /**
   * Per From domain signing (sender-identities/sender-signing.ts): the sender domain's keys plus the platform's,
   * and the VERP domain. When absent, every message uses `signers` and `settings.bounceDomain`.
   */
  signingFor?: SigningResolver;
  /**
   * Called after a batch in which the relay refused messages with a mailbox-level 5xx: the bounce protection
   * (bounces/record-report.ts checkCampaignProtection) counts those refusals as hard bounces.
   */
  onRejections?: (campaignId: string) => Promise<unknown>;
  workerId?: string;
}

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

/** A batch this worker holds (message_batches row, status sending) and its messages due now. */
interface ClaimedBatch {
  id: number;
  firstMessageId: number;
  lastMessageId: number;
  messages: ClaimedMessage[];
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
  /** Why the recipient may no longer receive it (the eligibility rule, asked again at the claim); null: send it. */
  skip_reason: SkipReason | null;
  /** A/B test variant (0 = the campaign as written); null for a normal campaign. */
  variant: number | null;
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

type AudienceLists = ReturnType<typeof audienceLists>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A lane hands back to the manager this often, so new campaigns, leases and schedules are looked at. */
const LANE_SLICE_MS = 5_000;
const TRANSACTIONAL_RECHECK_MS = 200;

/**
 * The sending engine of one worker process (listmonk's manager + pipe; keila's message states).
 * 1. Every poll the manager re-queues messages whose lease expired (their worker died), starts scheduled
 *    campaigns that are due, and lists the campaigns in status sending.
 * 2. `concurrency` lanes each claim a batch (message_batches): a queued one whose retry is due, with FOR UPDATE
 *    SKIP LOCKED, else the next `batchSize` messages carved from the campaign's cursor under its row lock — so
 *    any number of workers share a campaign without overlap. The lane skips contacts unsubscribed or suppressed
 *    since the snapshot, renders and builds each message, and delivers the batch through its relay.
 * 3. The batch's outcomes are recorded in one statement with the campaign counters: 2xx sent, 4xx or no reply
 *    queued again with exponential back-off (failed past the retry window), 5xx failed (5.7.x flagged policy);
 *    the batch is then done, or queued until its next retry. Too many consecutive connection-level failures
 *    pause the campaign with a pt-BR reason.
 * 4. Pause, resume and cancel are status changes; a lane only claims from a campaign in status sending, so
 *    they take effect at the next batch.
 * 5. A campaign with no queued or in-flight message left is finished exactly once: status sent, reservation
 *    settled for the messages marked sent, "campanha enviada" e-mailed to the owner.
 *
 * Crash safety and the in-flight window: a message is marked sent only in the statement that records its
 * batch, so the ledger (settled from the rows) always matches the messages marked sent. A worker killed between
 * the relay's 250 and that statement leaves its batch in status sending with its messages still queued; after
 * SENDING_LEASE_SECONDS any worker re-queues the batch and re-sends them. So at most SENDING_BATCH_SIZE ×
 * SENDING_CONCURRENCY messages per killed worker (its batches in flight) can be delivered twice, and nothing
 * else. A living worker renews the lease of every batch it holds (batch-leases.ts) while it builds, waits on the
 * rate limiter, delivers and records it, so a slow relay or a low SENDING_RATE_PER_RELAY never hands a healthy
 * worker's batch to another one. The message row itself is written once per attempt, as a heap-only update (see
 * messages.db.ts).
 */
export class CampaignSender {
  readonly workerId: string;
  private readonly db: Db;
  private readonly settings: SenderSettings;
  private readonly logger: Logger;
  private readonly limiters: RateLimiter[];
  private readonly contexts = new Map<string, Promise<CampaignContext>>();
  private readonly lists = new Map<string, Promise<AudienceLists>>();
  private stopped = false;
  private loop: Promise<void> | null = null;
  private lastSweep = 0;
  /** The transactional lanes (modules/transactional/transactional-lanes.ts), run between campaign batches. */
  readonly transactional: TransactionalLanes;
  /** The leases of the batches this worker is delivering, renewed while it works on them (batch-leases.ts). */
  readonly leases: BatchLeases;
  private transactionalIdleUntil = 0;

  constructor(private readonly deps: SenderDeps) {
    if (deps.transports.length === 0) throw new Error('the sender needs at least one transport');
    this.db = deps.db;
    this.settings = deps.settings;
    this.logger = deps.logger;
    this.workerId = deps.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.limiters = deps.transports.map(() => new RateLimiter(deps.settings.ratePerRelay));
    this.leases = new BatchLeases(this.db, this.workerId, deps.settings.leaseSeconds, this.logger);
    this.transactional = new TransactionalLanes({
      db: this.db,
      workerId: this.workerId,
      settings: this.settings,
      signers: deps.signers ?? [],
      signingFor: deps.signingFor,
      logger: this.logger,
      leases: this.leases,
      deliver: (relay, wire) => this.deliver(relay, wire),
    });
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
    // A/B tests whose wait is over: the winner is chosen and its held recipients queued (once, any worker).
    for (const decided of await decideDueAbTests(this.db)) {
      this.logger.info(decided, 'A/B test decided');
    }
    const active = (
      await this.db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.status, 'sending'))
    ).map((row) => row.id);

    // Every lane also serves the transactional streams, so they run even with no campaign sending.
    const lanes = Array.from({ length: this.settings.concurrency }, (_, lane) => this.runLane(lane, active));
    const processed = (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
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
      // After an empty transactional claim the process looks again only TRANSACTIONAL_RECHECK_MS later (across
      // ticks), so a big campaign or an idle worker pays about one query per interval, and a transactional
      // message waits at most that long (plus the poll) before a lane takes it.
      if (!this.stopped && Date.now() >= this.transactionalIdleUntil) {
        const sent = await this.transactional.sendBatch(relay);
        if (sent === 0) this.transactionalIdleUntil = Date.now() + TRANSACTIONAL_RECHECK_MS;
        round += sent;
      }
      if (round === 0) break;
      total += round;
    }
    return total;
  }

  /** One batch of one campaign, claim → skip → render → deliver → record. Returns the messages processed. */
  async sendBatch(campaignId: string, relay = 0): Promise<number> {
    const batch = await this.claim(campaignId);
    if (!batch) return 0;
    return this.leases.during([batch.id], () => this.processBatch(campaignId, relay, batch));
  }

  /** Skip → render → deliver → record of a claimed batch, its lease held. */
  private async processBatch(campaignId: string, relay: number, batch: ClaimedBatch): Promise<number> {
    const claimed = batch.messages;

    const outcomes: Outcome[] = [];
    const wire: WireMessage[] = [];
    // An A/B test's batch mixes variants: each group is built with its variant's context (subject, sender
    // name, content); a normal campaign is one group (variant null = the campaign as written).
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
    for (const [variant, group] of groups) {
      await this.buildGroup(await this.context(campaignId, variant), group, outcomes, wire);
    }

    const delivered = await this.deliver(relay, wire);
    const byId = new Map(claimed.map((m) => [String(m.id), m]));
    for (const outcome of delivered) {
      const message = byId.get(outcome.id);
      if (message) outcomes.push(this.outcomeOf(message, outcome));
    }
    const connectionFailure = delivered.length > 0 && delivered.every(isRelayFailure);
    await this.record(
      campaignId,
      batch,
      outcomes,
      delivered.some((o) => o.kind === 'sent'),
      connectionFailure,
      delivered[0]?.response,
    );
    if (this.deps.onRejections && outcomes.some((o) => o.status === 'failed' && (o.code ?? 0) >= 500 && !o.policy)) {
      await this.deps.onRejections(campaignId).catch((error: unknown) => {
        this.logger.error({ err: error, campaignId }, 'sending engine: bounce protection check failed');
      });
    }
    // A batch with nothing due yet (its retries are later) still counts as work, so the lane moves on.
    return Math.max(claimed.length, 1);
  }

  /** Renders and builds one variant's messages of a batch into `wire` (failures into `outcomes`). */
  private async buildGroup(
    context: CampaignContext,
    group: ClaimedMessage[],
    outcomes: Outcome[],
    wire: WireMessage[],
  ): Promise<void> {
    const first = wire.length;
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
    await this.signOnThreads(context, wire, first);
  }

  /** A built message signed now (no signing pool), or left for signOnThreads. */
  private signHere(context: CampaignContext, raw: Buffer): Buffer {
    return this.deps.signingPool ? raw : signChain(context.signers, raw);
  }

  /**
   * With a signing pool: the messages built into `wire` from index `first` are signed on the pool's threads,
   * all at once. If the pool fails (a thread died), they are signed here instead — never sent unsigned.
   */
  private async signOnThreads(context: CampaignContext, wire: WireMessage[], first: number): Promise<void> {
    const pool = this.deps.signingPool;
    if (!pool || context.signers.length === 0 || wire.length === first) return;
    const built = wire.slice(first);
    let signed: Buffer[];
    try {
      signed = await pool.signAll(
        context.signers,
        built.map((m) => m.raw),
      );
    } catch (error) {
      this.logger.warn({ err: error, campaignId: context.id }, 'sending engine: signing pool failed, signing here');
      signed = built.map((m) => signChain(context.signers, m.raw));
    }
    built.forEach((m, i) => {
      m.raw = signed[i] as Buffer;
    });
  }

  /**
   * Hands built messages to the relay's transport, within the relay's rate limit; a transport that throws
   * answers every message temporary (retried with back-off). Shared with the transactional lanes.
   */
  async deliver(relay: number, wire: WireMessage[]): Promise<DeliveryOutcome[]> {
    if (wire.length === 0) return [];
    await this.limiters[relay]?.take(wire.length);
    const transport = this.deps.transports[relay] as MailTransport;
    try {
      return await transport.deliver(wire);
    } catch (error) {
      const response = `sem resposta do servidor: ${(error as Error).message}`;
      return wire.map((m) => ({
        id: m.id,
        kind: 'temporary',
        policy: false,
        code: null,
        enhancedCode: null,
        response,
      }));
    }
  }

  /** A queued batch whose retry is due, else a new batch carved from the cursor; null when none is left. */
  private async claim(campaignId: string): Promise<ClaimedBatch | null> {
    const lists = await this.audienceLists(campaignId);
    return (await this.claimQueuedBatch(campaignId, lists)) ?? (await this.carveBatch(campaignId, lists));
  }

  /** The campaign's audience lists as the eligibility rule reads them (fixed once sending started; cached). */
  private audienceLists(campaignId: string): Promise<AudienceLists> {
    let lists = this.lists.get(campaignId);
    if (!lists) {
      lists = (async () => {
        const [row] = await this.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
        if (!row) throw new Error(`campaign ${campaignId} not found`);
        return audienceLists(await campaignAudience(this.db, row.createdBy, row));
      })();
      lists.catch(() => this.lists.delete(campaignId));
      this.lists.set(campaignId, lists);
    }
    return lists;
  }

  /** Retries and expired leases: the oldest due queued batch no other worker holds. */
  private claimQueuedBatch(campaignId: string, lists: AudienceLists): Promise<ClaimedBatch | null> {
    return this.readBatch(
      campaignId,
      lists,
      sql`batch as (
            update message_batches b
               set status = 'sending', claimed_by = ${this.workerId}, claimed_at = now()
             where b.id = (select id from message_batches
                            where campaign_id = ${campaignId} and status = 'queued' and due_at <= now()
                            order by due_at, id limit 1
                            for update skip locked)
               and exists (select 1 from campaigns c where c.id = ${campaignId} and c.status = 'sending')
            returning b.id, b.first_message_id, b.last_message_id)`,
    );
  }

  /**
   * The next batchSize message ids of the snapshot, from campaign_sends.next_message_id: pure arithmetic on the
   * cursor, no scan (a snapshot is one INSERT, so its ids are one ascending run; ids of another campaign's
   * concurrent snapshot inside the range only make the batch smaller). The cursor row is locked for the
   * statement: a concurrent carve waits, then reads the advanced cursor (READ COMMITTED re-reads a row it
   * waited for), so ranges never overlap; a cancel moves the cursor past the end.
   */
  private carveBatch(campaignId: string, lists: AudienceLists): Promise<ClaimedBatch | null> {
    return this.readBatch(
      campaignId,
      lists,
      sql`cursor as (
            select cs.next_message_id as first_id,
                   least(cs.next_message_id + ${this.settings.batchSize - 1}, cs.last_message_id) as last_id
              from campaign_sends cs
             where cs.campaign_id = ${campaignId} and cs.next_message_id <= cs.last_message_id
               and exists (select 1 from campaigns c where c.id = ${campaignId} and c.status = 'sending')
               for update of cs),
          advanced as (
            update campaign_sends cs set next_message_id = cursor.last_id + 1
              from cursor
             where cs.campaign_id = ${campaignId}
            returning cs.campaign_id),
          batch as (
            insert into message_batches (campaign_id, first_message_id, last_message_id, status, claimed_by, claimed_at)
            select ${campaignId}, cursor.first_id, cursor.last_id, 'sending', ${this.workerId}, now()
              from cursor, advanced
            returning id, first_message_id, last_message_id)`,
    );
  }

  /**
   * Runs a claim (the CTE named `batch`) and reads the batch's messages that are due: the contact is re-read
   * here, so personalisation uses current data, and the eligibility rule the snapshot applied is asked again, so a
   * recipient who stopped being eligible since (unsubscribed, suppressed, deleted, left the lists) is skipped with
   * its reason. A batch with no message due comes back with an empty list (it is released by record()).
   */
  private async readBatch(campaignId: string, lists: AudienceLists, claim: SQL): Promise<ClaimedBatch | null> {
    const rows = await queryRows<ClaimedMessage & { batch_id: number; first_id: number; last_id: number }>(
      this.db,
      sql`with ${claim}
          select batch.id as batch_id, batch.first_message_id as first_id, batch.last_message_id as last_id,
                 m.id, m.email, m.token, m.attempts, m.variant,
                 (extract(epoch from m.created_at) * 1000)::float8 as created_ms, ct.name, ct.fields,
                 ${ineligibilityReasonSql({
                   accountId: sql`m.account_id`,
                   email: sql`m.email`,
                   contact: 'ct',
                   stream: 'marketing',
                   lists,
                 })} as skip_reason
            from batch
            left join lateral (
                 select m.id, m.email, m.token, m.attempts, m.created_at, m.contact_id, m.account_id, m.variant
                   from messages m
                  where m.id between batch.first_message_id and batch.last_message_id and m.campaign_id = ${campaignId}
                    and m.status = 'queued' and m.next_attempt_at <= now()) m on true
            -- LIMIT keeps each lookup a per-message index probe: joined freely, the planner hashed the whole
            -- account's contacts and memberships for every batch (EXPLAIN: 10.7 ms per 500 at 20k contacts).
            left join lateral (
                 select ct.id, ct.name, ct.fields, ct.status from contacts ct where ct.id = m.contact_id limit 1) ct on true
           order by m.id`,
    );
    const first = rows[0];
    if (!first) return null;
    const messages: ClaimedMessage[] = [];
    // bigint ids arrive as number (pg) or bigint/string (PGlite): one type from here on.
    for (const row of rows) {
      if (row.id === null) continue;
      row.id = Number(row.id);
      row.attempts = Number(row.attempts);
      row.created_ms = Number(row.created_ms);
      row.variant = row.variant === null || row.variant === undefined ? null : Number(row.variant);
      messages.push(row);
    }
    return {
      id: Number(first.batch_id),
      firstMessageId: Number(first.first_id),
      lastMessageId: Number(first.last_id),
      messages,
    };
  }

  /** The fast path: render, track, encode and sign one message from the campaign's body programs. */
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
    return this.wireMessage(context, message, this.signHere(context, raw));
  }

  /** Liquid render of one message (the tracking markers of the prepared HTML source included). */
  private render(context: CampaignContext, message: ClaimedMessage): RenderedMessage {
    const links = messageLinks(context.linkBase, context.id, message.token);
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
    const raw = buildMimeMessage(context.frame, {
      messageId: message.token,
      to: message.email,
      toName: message.name,
      subject: rendered.subject,
      unsubscribeUrl: messageLinks(context.linkBase, context.id, message.token).unsubscribeUrl,
      text: rendered.text,
      html,
    });
    return this.wireMessage(context, message, this.signHere(context, raw));
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
    const raw = buildMimeMessage(context.frame as MessageFrame, {
      messageId: message.token,
      to: message.email,
      toName: message.name,
      subject: rendered.subject,
      unsubscribeUrl: messageLinks(context.linkBase, context.id, message.token).unsubscribeUrl,
      text: rendered.text,
      html,
    });
    return this.wireMessage(context, message, this.signHere(context, raw));
  }

  private wireMessage(context: CampaignContext, message: ClaimedMessage, raw: Buffer): WireMessage {
    return {
      id: String(message.id),
      envelopeFrom: verpAddress(message.token, context.envelope.bounceDomain),
      recipient: message.email,
      raw,
    };
  }

  private outcomeOf(message: ClaimedMessage, outcome: DeliveryOutcome): Outcome {
    return deliveryOutcome(this.settings, message, outcome);
  }

  /**
   * Writes a batch's outcomes and releases the batch in one statement (atomic by itself: no BEGIN/COMMIT round
   * trips; the campaign row is locked only for the statement): the message rows (heap-only updates), the
   * campaign counters (sent, failed, skipped, refused: always equal to the rows, so progress, reports and the
   * bounce protection never count rows), the batch (done, or queued until its earliest pending retry) and the error streak reset
   * (written only when it is not 0 already). Nothing is written when this worker no longer holds the batch: its
   * lease expired and another worker took it over.
   */
  private async record(
    campaignId: string,
    batch: ClaimedBatch,
    outcomes: Outcome[],
    anySent: boolean,
    connectionFailure: boolean,
    lastResponse: string | undefined,
  ): Promise<void> {
    await recordBatchOutcomes(this.db, this.workerId, campaignId, batch, outcomes, anySent);
    if (connectionFailure && !anySent) await this.countRelayFailure(campaignId, lastResponse);
  }

  /** One more batch failed at the connection level; past pauseAfterErrors in a row the campaign pauses. */
  private async countRelayFailure(campaignId: string, lastResponse: string | undefined): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(campaignSends)
        .set({ consecutiveErrors: sql`${campaignSends.consecutiveErrors} + 1` })
        .where(eq(campaignSends.campaignId, campaignId))
        .returning({ errors: campaignSends.consecutiveErrors });
      if (!row || row.errors < this.settings.pauseAfterErrors) return;
      const reason = `Pausada automaticamente: o servidor de envio falhou ${row.errors} vezes seguidas (${(lastResponse ?? 'sem resposta').slice(0, 200)}). Verifique o servidor SMTP e retome a campanha.`;
      if (await transitionCampaignStatus(tx as unknown as Db, campaignId, ['sending'], 'paused')) {
        await tx.update(campaignSends).set({ pausedReason: reason }).where(eq(campaignSends.campaignId, campaignId));
        await emitCampaignEvent(tx, campaignId, 'campaign.paused', { reason }); // outbound webhook
        this.logger.error({ campaignId, errors: row.errors, lastResponse }, 'campaign paused: relay failing');
      }
    });
  }

  /** Batches claimed by a worker that died (lease expired) go back to the queue, due at once. */
  private async requeueExpiredLeases(): Promise<void> {
    const rows = await queryRows<{ id: number }>(
      this.db,
      sql`update message_batches set status = 'queued', claimed_by = null, claimed_at = null, due_at = now()
           where status = 'sending' and claimed_at < now() - make_interval(secs => ${this.settings.leaseSeconds})
          returning id`,
    );
    if (rows.length > 0)
      this.logger.warn({ batches: rows.length }, 'sending engine: re-queued the batches of an expired lease');
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
      for (const key of [...this.contexts.keys()]) if (key.startsWith(`${campaignId}:`)) this.contexts.delete(key);
      this.lists.delete(campaignId);
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
    const [row] = await this.db
      .select({ campaign: campaigns, account: accounts })
      .from(campaigns)
      .innerJoin(accounts, eq(accounts.id, campaigns.createdBy))
      .where(eq(campaigns.id, campaignId));
    if (!row) throw new Error(`campaign ${campaignId} not found`);
    const { account } = row;
    const override = variant > 0 ? row.campaign.abTest?.variants[variant - 1] : undefined;
    if (variant > 0 && !override) throw new Error(`campaign ${campaignId} has no A/B variant ${variant}`);
    const campaign = override
      ? {
          ...row.campaign,
          subject: override.subject,
          fromName: override.fromName ?? row.campaign.fromName,
          template: override.template ?? row.campaign.template,
        }
      : row.campaign;
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

/**
 * The relay, not the recipient, failed: no reply (connection refused or lost, timeout), 421 (service closing),
 * or a 5xx the transport reported as temporary (an AUTH refusal answers every queued message that way).
 */
function isRelayFailure(outcome: DeliveryOutcome): boolean {
  return outcome.kind === 'temporary' && (outcome.code === null || outcome.code === 421 || outcome.code >= 500);
}

function final(id: number, status: 'failed', code: number | null, response: string): Outcome {
  return { id, status, nextAttemptAt: null, code, enhancedCode: null, response, policy: false };
}
