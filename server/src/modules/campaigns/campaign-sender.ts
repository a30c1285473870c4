import type { Mailer } from '../../mail/mailer';
import type { SigningResolver } from '../sender-identities/sender-signing';
import { deliveryOutcome, type Outcome, recordBatchOutcomes } from '../sending/batch-outcomes';
import type { ClaimSource, WorkerContext } from '../sending/delivery-worker';
import type { DkimSigner } from '../sending/dkim/dkim-signer';
import type { DkimSigningPool } from '../sending/dkim/signing-pool';
import { isRelayFailure } from '../sending/relay-delivery';
import { signGroups } from '../sending/sign-step';
import type { DeliveryOutcome } from '../sending/transport';
import { decideDueAbTests } from './ab-test';
import { CampaignBatches, type ClaimedBatch } from './campaign-batches';
import {
  countRelayFailure,
  finishCampaignIfDone,
  notifyCampaignSent,
  unsettledCancelledCampaigns,
} from './campaign-controls';
import { campaignOutcomeCtes } from './campaign-counters';
import { CampaignMessages } from './campaign-messages';
import { startDueCampaigns } from './start-campaign-send';

export type { SenderSettings } from '../sending/sender-settings';

/** What the campaign source needs beyond the worker's context. */
export interface CampaignSourceDeps {
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
}

/**
 * The campaign claim source of the delivery worker (delivery-worker.ts; listmonk's manager + pipe, keila's message
 * states). Each tick it starts the scheduled campaigns that are due, decides the A/B tests whose wait is over and
 * lists the campaigns in status sending; in each round of a lane it sends one batch of each, as its five steps:
 * 1. claim (campaigns/campaign-batches.ts): a queued batch whose retry is due (FOR UPDATE SKIP LOCKED), else the
 *    next `batchSize` messages carved from the campaign's cursor under its row lock — so any number of workers
 *    share a campaign without overlap — with the eligibility rule asked again for each recipient;
 * 2. build (campaigns/campaign-messages.ts), 3. sign (sign-step.ts), 4. deliver (the worker's relays);
 * 5. record (batch-outcomes.ts with the campaign counters, one statement): 2xx sent, 4xx or no reply queued again
 *    with exponential back-off (failed past the retry window), 5xx failed (5.7.x flagged policy). Too many
 *    consecutive connection-level failures pause the campaign with a pt-BR reason.
 * Pause, resume and cancel are status changes: a claim only takes from a campaign in status sending. After the
 * lanes, a campaign with nothing queued or in flight is finished exactly once (status sent, reservation settled
 * for the messages marked sent, "campanha enviada" e-mailed to the owner).
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
export class CampaignSender implements ClaimSource {
  private lastSweep = 0;
  /** The campaigns in status sending at this tick: the ones the lanes claim from. */
  private active: string[] = [];
  /** Claim: the campaign claim source (campaigns/campaign-batches.ts). */
  private readonly batches: CampaignBatches;
  /** Build: the campaign message builder (campaigns/campaign-messages.ts). */
  private readonly messages: CampaignMessages;

  constructor(
    private readonly worker: WorkerContext,
    private readonly deps: CampaignSourceDeps,
  ) {
    this.batches = new CampaignBatches(worker.db, worker.workerId, worker.settings.batchSize);
    this.messages = new CampaignMessages({
      db: worker.db,
      settings: worker.settings,
      signers: deps.signers,
      signingFor: deps.signingFor,
    });
  }

  /** The schedule sweep, the A/B decisions (on a housekeeping `sweep`) and the campaigns to claim from. */
  async prepare(sweep = true): Promise<void> {
    const { db, logger, settings } = this.worker;
    const now = this.worker.clock();
    if (now.getTime() - this.lastSweep >= settings.scheduleSweepSeconds * 1000) {
      this.lastSweep = now.getTime();
      await startDueCampaigns(
        db,
        (campaignId, error) =>
          logger.warn({ err: error, campaignId }, 'scheduled campaign could not start; back to draft'),
        now,
      );
    }
    // A/B tests whose wait is over: the winner is chosen and its held recipients queued (once, any worker).
    if (sweep) {
      for (const decided of await decideDueAbTests(db, now)) {
        logger.info(decided, 'A/B test decided');
      }
    }
    this.active = await this.batches.sendingCampaigns();
  }

  /** One batch of each sending campaign, round-robin. Returns the messages processed. */
  async sendBatch(relay: number): Promise<number> {
    let total = 0;
    for (const campaignId of this.active) {
      if (this.worker.isStopped()) break;
      total += await this.sendCampaignBatch(campaignId, relay);
    }
    return total;
  }

  /** One batch of one campaign: claim → build → sign → deliver → record. Returns the messages processed. */
  async sendCampaignBatch(campaignId: string, relay = 0): Promise<number> {
    const batch = await this.batches.claim(campaignId);
    if (!batch) return 0;
    return this.worker.leases.during([batch.id], () => this.processBatch(campaignId, relay, batch));
  }

  /** Build → sign → deliver → record of a claimed batch, its lease held. */
  private async processBatch(campaignId: string, relay: number, batch: ClaimedBatch): Promise<number> {
    const outcomes: Outcome[] = [];
    const built = await this.messages.build(campaignId, batch.messages, outcomes);
    await signGroups(built, this.deps.signingPool, (error) =>
      this.worker.logger.warn({ err: error, campaignId }, 'sending engine: signing pool failed, signing here'),
    );
    const delivered = await this.worker.deliver(
      relay,
      built.flatMap((group) => group.wire),
    );
    await this.record(campaignId, batch, outcomes, delivered);
    // A batch with nothing due yet (its retries are later) still counts as work, so the lane moves on.
    return Math.max(batch.messages.length, 1);
  }

  /**
   * The outcome recorder (batch-outcomes.ts): the batch's outcomes, the campaign counters and the batch released
   * in one statement; then the campaign's relay-failure streak, and the bounce protection after mailbox-level
   * refusals.
   */
  private async record(
    campaignId: string,
    batch: ClaimedBatch,
    outcomes: Outcome[],
    delivered: DeliveryOutcome[],
  ): Promise<void> {
    const { db, workerId, settings, logger } = this.worker;
    const byId = new Map(batch.messages.map((m) => [String(m.id), m]));
    const now = this.worker.clock();
    for (const outcome of delivered) {
      const message = byId.get(outcome.id);
      if (message) outcomes.push(deliveryOutcome(settings, message, outcome, now));
    }
    const anySent = delivered.some((o) => o.kind === 'sent');
    await recordBatchOutcomes(db, workerId, campaignId, batch, outcomes, {
      sourceCtes: campaignOutcomeCtes(campaignId, anySent),
    });
    if (!anySent && delivered.length > 0 && delivered.every(isRelayFailure)) {
      await countRelayFailure(db, campaignId, settings.pauseAfterErrors, delivered[0]?.response, logger);
    }
    if (this.deps.onRejections && outcomes.some((o) => o.status === 'failed' && (o.code ?? 0) >= 500 && !o.policy)) {
      await this.deps.onRejections(campaignId).catch((error: unknown) => {
        logger.error({ err: error, campaignId }, 'sending engine: bounce protection check failed');
      });
    }
  }

  /**
   * Finishes the active campaigns with nothing left, and (on a housekeeping `sweep`) cancelled ones whose in-flight
   * messages are recorded.
   */
  async settle(sweep = true): Promise<void> {
    const { db, logger, settings } = this.worker;
    const cancelled = sweep ? await unsettledCancelledCampaigns(db) : [];
    for (const campaignId of [...this.active, ...cancelled]) {
      const result = await finishCampaignIfDone(db, campaignId);
      if (!result) continue;
      this.messages.forget(campaignId);
      this.batches.forget(campaignId);
      logger.info({ campaignId, ...result }, 'campaign finished');
      if (result.status === 'sent') {
        await notifyCampaignSent(db, this.deps.mailer, logger, campaignId, result, settings.publicUrl);
      }
    }
  }
}
