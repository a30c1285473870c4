import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { type Clock, systemClock } from '../../clock';
import type { Db } from '../../db/database';
import { BatchLeases } from './batch-leases';
import { requeueExpiredBatches } from './message-queue';
import { RelayDelivery } from './relay-delivery';
import type { SenderSettings } from './sender-settings';
import type { DeliveryOutcome, MailTransport, WireMessage } from './transport';

/** What a claim source borrows from the worker: its database, identity, settings, leases and relays. */
export interface WorkerContext {
  db: Db;
  workerId: string;
  settings: SenderSettings;
  logger: Logger;
  /** The clock of the sources' time decisions: schedules due, A/B waits over (ARCHITECTURE.md "Time"). */
  clock: Clock;
  /** The leases of the batches this worker is delivering, renewed while it works on them (batch-leases.ts). */
  leases: BatchLeases;
  /** True once stop() was called: a source stops claiming. */
  isStopped(): boolean;
  /** Hands built messages to a relay (relay-delivery.ts: its rate limiter and transport). */
  deliver(relay: number, wire: WireMessage[]): Promise<DeliveryOutcome[]>;
}

/**
 * A kind of stream the worker claims from (the campaign batches, the transactional batches). Its own module does
 * its claim and build; the pipeline's shared steps (sign-step, relay-delivery, batch-outcomes) do the rest.
 */
export interface ClaimSource {
  /**
   * Once per tick, before the lanes: the streams it will claim from, and with `sweep` (at most every
   * `settings.sweepMs`) its housekeeping sweeps.
   */
  prepare?(sweep: boolean): Promise<void>;
  /** Claim → build → sign → deliver → record of one claim on `relay`; the messages processed (0: nothing due). */
  sendBatch(relay: number): Promise<number>;
  /** Once per tick, after the lanes (e.g. finishing the campaigns with nothing left); `sweep` as for prepare. */
  settle?(sweep: boolean): Promise<void>;
  /**
   * After an empty claim the worker asks this source again only this many ms later (across ticks), so a busy
   * worker pays about one empty claim per interval; unset: asked every round.
   */
  idleRecheckMs?: number;
}

export interface WorkerDeps {
  db: Db;
  /** One transport per relay; lanes are spread over them. */
  transports: MailTransport[];
  settings: SenderSettings;
  logger: Logger;
  workerId?: string;
  /** Default: the system's. */
  clock?: Clock;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A lane hands back to the loop this often, so new campaigns, leases and schedules are looked at. */
const LANE_SLICE_MS = 5_000;
/**
 * The housekeeping sweeps' interval when settings.sweepMs is unset: a dead worker's batches go back to the queue
 * at most this much after their lease (SENDING_LEASE_SECONDS) expired, an A/B test is decided and a cancelled
 * campaign settled at most this much later than on the next tick.
 */
export const DEFAULT_SWEEP_MS = 1_000;

/**
 * The delivery loop of one worker process, the same for every stream: each tick re-queues the batches of an
 * expired lease (their worker died), lets each claim source prepare, then runs `concurrency` lanes — each asks
 * every source in turn for one claim on its relay until none had work or the lane's slice is over — and lets each
 * source settle. Crash safety is the pipeline's: a message is marked sent only by the statement that records its
 * batch, and a batch held past SENDING_LEASE_SECONDS by a dead worker is re-queued and delivered again (ADR 0036).
 */
export class DeliveryWorker {
  readonly workerId: string;
  readonly leases: BatchLeases;
  protected readonly context: WorkerContext;
  private readonly settings: SenderSettings;
  private readonly relays: RelayDelivery;
  private readonly sources: ClaimSource[] = [];
  private readonly idleUntil = new Map<ClaimSource, number>();
  private stopped = false;
  /** When the last housekeeping sweep ran (worker clock, ms); null: never. */
  private lastSweepAt: number | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly deps: WorkerDeps) {
    this.settings = deps.settings;
    this.relays = new RelayDelivery(deps.transports, deps.settings.ratePerRelay);
    this.workerId = deps.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.leases = new BatchLeases(deps.db, this.workerId, deps.settings.leaseSeconds, deps.logger);
    this.context = {
      db: deps.db,
      workerId: this.workerId,
      settings: deps.settings,
      logger: deps.logger,
      clock: deps.clock ?? systemClock,
      leases: this.leases,
      isStopped: () => this.stopped,
      deliver: (relay, wire) => this.relays.deliver(relay, wire),
    };
  }

  /** The sources this worker claims from, asked in this order in every round of a lane. */
  protected serve(...sources: ClaimSource[]): void {
    this.sources.push(...sources);
  }

  /** Starts the loop in the background. */
  start(): void {
    if (this.loop) return;
    this.stopped = false;
    this.loop = (async () => {
      while (!this.stopped) {
        let worked = false;
        try {
          worked = await this.tick();
        } catch (error) {
          this.deps.logger.error({ err: error }, 'sending engine: tick failed');
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

  /** One round of the loop. True when some message was processed (the loop then goes on at once). */
  async tick(): Promise<boolean> {
    const sweep = this.sweepDue();
    if (sweep) {
      const requeued = await requeueExpiredBatches(this.deps.db, this.settings.leaseSeconds);
      if (requeued > 0)
        this.deps.logger.warn({ batches: requeued }, 'sending engine: re-queued the batches of an expired lease');
    }
    for (const source of this.sources) await source.prepare?.(sweep);
    const lanes = Array.from({ length: this.settings.concurrency }, (_, lane) => this.runLane(lane));
    const processed = (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
    for (const source of this.sources) await source.settle?.(sweep);
    return processed > 0;
  }

  /** True (and noted) when the housekeeping sweeps are due on this tick: the first tick, then every sweepMs. */
  private sweepDue(): boolean {
    const now = this.context.clock().getTime();
    const every = this.settings.sweepMs ?? DEFAULT_SWEEP_MS;
    // A clock moved back (a test's) sweeps at once rather than waiting for it to catch up.
    if (this.lastSweepAt !== null && now >= this.lastSweepAt && now - this.lastSweepAt < every) return false;
    this.lastSweepAt = now;
    return true;
  }

  /** Asks every source in turn for one claim on this lane's relay until none had work or the slice is over. */
  private async runLane(lane: number): Promise<number> {
    const relay = lane % this.relays.count;
    const until = Date.now() + LANE_SLICE_MS;
    let total = 0;
    while (!this.stopped && Date.now() < until) {
      let round = 0;
      for (const source of this.sources) {
        if (this.stopped) break;
        // The idle re-check is the worker's clock (a test moves it); the lane's slice above is elapsed work time.
        if (source.idleRecheckMs !== undefined && this.context.clock().getTime() < (this.idleUntil.get(source) ?? 0))
          continue;
        const sent = await source.sendBatch(relay);
        if (sent === 0 && source.idleRecheckMs !== undefined)
          this.idleUntil.set(source, this.context.clock().getTime() + source.idleRecheckMs);
        round += sent;
      }
      if (round === 0) break;
      total += round;
    }
    return total;
  }
}
