import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { decideDueAbTests } from '../campaigns/ab-test';
import { CampaignBatches, type ClaimedBatch } from '../campaigns/campaign-batches';
import {
  countRelayFailure,
  finishCampaignIfDone,
  notifyCampaignSent,
  unsettledCancelledCampaigns,
} from '../campaigns/campaign-controls';
import { campaignOutcomeCtes } from '../campaigns/campaign-counters';
import { CampaignMessages } from '../campaigns/campaign-messages';
import { startDueCampaigns } from '../campaigns/start-campaign-send';
import type { SigningResolver } from '../sender-identities/sender-signing';
import { TransactionalLanes } from '../transactional/transactional-lanes';
import { BatchLeases } from './batch-leases';
import { deliveryOutcome, type Outcome, recordBatchOutcomes } from './batch-outcomes';
import type { DkimSigner } from './dkim/dkim-signer';
import type { DkimSigningPool } from './dkim/signing-pool';
import { isRelayFailure, RelayDelivery } from './relay-delivery';
import type { SenderSettings } from './sender-settings';
import { signGroups } from './sign-step';
import type { DeliveryOutcome, MailTransport, WireMessage } from './transport';

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
  private stopped = false;
  private loop: Promise<void> | null = null;
  private lastSweep = 0;
  /** Claim: the campaign claim source (campaigns/campaign-batches.ts). */
  private readonly batches: CampaignBatches;
  /** Build: the campaign message builder (campaigns/campaign-messages.ts). */
  private readonly messages: CampaignMessages;
  /** Deliver: the relays and their rate limiters, shared with the transactional lanes. */
  private readonly relays: RelayDelivery;
  /** The transactional lanes (modules/transactional/transactional-lanes.ts), run between campaign batches. */
  readonly transactional: TransactionalLanes;
  /** The leases of the batches this worker is delivering, renewed while it works on them (batch-leases.ts). */
  readonly leases: BatchLeases;
  private transactionalIdleUntil = 0;

  constructor(private readonly deps: SenderDeps) {
    this.db = deps.db;
    this.settings = deps.settings;
    this.logger = deps.logger;
    this.relays = new RelayDelivery(deps.transports, deps.settings.ratePerRelay);
    this.workerId = deps.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.leases = new BatchLeases(this.db, this.workerId, deps.settings.leaseSeconds, this.logger);
    this.batches = new CampaignBatches(this.db, this.workerId, this.settings.batchSize);
    this.messages = new CampaignMessages({
      db: this.db,
      settings: this.settings,
      signers: deps.signers,
      signingFor: deps.signingFor,
    });
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
    const active = await this.batches.sendingCampaigns();

    // Every lane also serves the transactional streams, so they run even with no campaign sending.
    const lanes = Array.from({ length: this.settings.concurrency }, (_, lane) => this.runLane(lane, active));
    const processed = (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
    await this.finishDone(active);
    return processed > 0;
  }

  /** Claims and delivers batches round-robin over the active campaigns until none has due messages. */
  private async runLane(lane: number, campaignIds: string[]): Promise<number> {
    const relay = lane % this.relays.count;
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
  /** One batch of one campaign: claim → build → sign → deliver → record. Returns the messages processed. */
  async sendBatch(campaignId: string, relay = 0): Promise<number> {
    const batch = await this.batches.claim(campaignId);
    if (!batch) return 0;
    return this.leases.during([batch.id], () => this.processBatch(campaignId, relay, batch));
  }

  /** Build → sign → deliver → record of a claimed batch, its lease held. */
  private async processBatch(campaignId: string, relay: number, batch: ClaimedBatch): Promise<number> {
    const outcomes: Outcome[] = [];
    const built = await this.messages.build(campaignId, batch.messages, outcomes);
    await signGroups(built, this.deps.signingPool, (error) =>
      this.logger.warn({ err: error, campaignId }, 'sending engine: signing pool failed, signing here'),
    );
    const delivered = await this.deliver(
      relay,
      built.flatMap((group) => group.wire),
    );
    await this.record(campaignId, batch, outcomes, delivered);
    // A batch with nothing due yet (its retries are later) still counts as work, so the lane moves on.
    return Math.max(batch.messages.length, 1);
  }

  /** Hands built messages to the relay (relay-delivery.ts). Shared with the transactional lanes. */
  deliver(relay: number, wire: WireMessage[]): Promise<DeliveryOutcome[]> {
    return this.relays.deliver(relay, wire);
  }

  /**
   * The outcome recorder (batch-outcomes.ts): the batch's outcomes, its counters and the batch released in one
   * statement; then the campaign's relay-failure streak, and the bounce protection after mailbox-level refusals.
   */
  private async record(
    campaignId: string,
    batch: ClaimedBatch,
    outcomes: Outcome[],
    delivered: DeliveryOutcome[],
  ): Promise<void> {
    const byId = new Map(batch.messages.map((m) => [String(m.id), m]));
    for (const outcome of delivered) {
      const message = byId.get(outcome.id);
      if (message) outcomes.push(deliveryOutcome(this.settings, message, outcome));
    }
    const anySent = delivered.some((o) => o.kind === 'sent');
    await recordBatchOutcomes(this.db, this.workerId, campaignId, batch, outcomes, {
      sourceCtes: campaignOutcomeCtes(campaignId, anySent),
    });
    if (!anySent && delivered.length > 0 && delivered.every(isRelayFailure)) {
      await countRelayFailure(this.db, campaignId, this.settings.pauseAfterErrors, delivered[0]?.response, this.logger);
    }
    if (this.deps.onRejections && outcomes.some((o) => o.status === 'failed' && (o.code ?? 0) >= 500 && !o.policy)) {
      await this.deps.onRejections(campaignId).catch((error: unknown) => {
        this.logger.error({ err: error, campaignId }, 'sending engine: bounce protection check failed');
      });
    }
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
    for (const campaignId of [...active, ...(await unsettledCancelledCampaigns(this.db))]) {
      const result = await finishCampaignIfDone(this.db, campaignId);
      if (!result) continue;
      this.messages.forget(campaignId);
      this.batches.forget(campaignId);
      this.logger.info({ campaignId, ...result }, 'campaign finished');
      if (result.status === 'sent') {
        await notifyCampaignSent(this.db, this.deps.mailer, this.logger, campaignId, result, this.settings.publicUrl);
      }
    }
  }
}
