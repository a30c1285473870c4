import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import {
  type AttemptDeps,
  type AttemptOutcome,
  applyEndpointEffects,
  attemptDelivery,
  type ClaimedDelivery,
  claimDueDeliveries,
  type DueKey,
  type EndpointEffectDeps,
  newClaimToken,
  recordAttempts,
  releaseClaims,
} from './deliver';

export interface DeliveryLanesOptions {
  db: Db;
  attempt: AttemptDeps;
  effects: EndpointEffectDeps;
  logger: Pick<Logger, 'warn' | 'info' | 'error'>;
  /** Attempts in flight in this process, all endpoints together. */
  concurrency: number;
  /** Attempts in flight per endpoint in this process. */
  endpointConcurrency: number;
  leaseSeconds: number;
  /** How often an idle loop looks for due deliveries (retries coming due) when nothing wakes it. */
  idlePollMs: number;
  /** Outcomes are recorded in batches: at this many, or this long after the first one waiting. */
  recordBatch?: number;
  recordDelayMs?: number;
  /** The endpoints' reach (tests start with a grown one); a fresh one otherwise. */
  reach?: EndpointReach;
}

/**
 * The delivery side of webhooks in one worker process: a loop claims due deliveries (deliver.ts
 * claimDueDeliveries) and starts one attempt per delivery without waiting for it, up to the capacity — in all and
 * per endpoint; outcomes are recorded in batches (one statement each), then their endpoint effects applied.
 * Capacity is per endpoint: a slow or dead endpoint occupies at most `endpointConcurrency` attempts while every
 * other endpoint keeps being served, and nothing here runs on the sending engine's path.
 *
 * Claims reach one capacity ahead: an endpoint's claim takes up to twice its attempts in flight, and what cannot
 * start yet waits in the endpoint's queue, in due order, and starts as a slot frees. The next claim for the
 * endpoint comes when its queue is down to half a capacity — one claim statement per ~1.5 capacities of events
 * instead of one per handful of freed slots (a claim costs more database work than the attempts it starts).
 */
export class WebhookDeliveryLanes {
  private readonly inFlight = new Map<string, number>();
  private total = 0;
  /** Claimed, not started yet (the endpoint is at its cap, or the process is), per endpoint in due order. */
  private readonly queued = new Map<string, ClaimedDelivery[]>();
  private queuedTotal = 0;
  /** Endpoints whose last claim got all the room it had (more may be due): their queue running low is worth a claim. */
  private readonly saturated = new Set<string>();
  private totalSaturated = false;
  /** Endpoints with more due than their last claim took: where in their due order the next claim starts. */
  private readonly after = new Map<string, DueKey>();
  /** What each endpoint may hold in this process (in flight and queued): two capacities, more for a fast one. */
  private readonly reach: EndpointReach;
  /** Endpoints a claim was asked for because their queue ran low (their queue emptying before it came = grow). */
  private readonly wanting = new Set<string>();
  /** Endpoints that answered 410 and are being disabled: nothing more is claimed or started for them meanwhile. */
  private readonly gone = new Set<string>();
  private running = false;
  private loopDone: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private wakeRequested = false;
  private readonly attempts = new Set<Promise<void>>();
  /** Deliveries claimed by this process and not recorded yet (queued, attempting, or outcome waiting). */
  private readonly held = new Set<string>();
  private pending: AttemptOutcome[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly recordBatch: number;
  private readonly recordDelayMs: number;

  constructor(private readonly options: DeliveryLanesOptions) {
    this.recordBatch = options.recordBatch ?? 200;
    this.recordDelayMs = options.recordDelayMs ?? 20;
    this.reach = options.reach ?? new EndpointReach(options);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /** New deliveries may be due (the dispatcher just created some): claim now instead of at the next poll. */
  wake(): void {
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  /**
   * Stops claiming, gives back what was claimed but not started (its lease cleared: due again at once for any
   * worker), lets the attempts in flight finish (each bounded by WEBHOOKS_TIMEOUT_MS), records them.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loopDone;
    const unstarted = [...this.queued.values()].flat();
    this.queued.clear();
    this.queuedTotal = 0;
    if (unstarted.length > 0) {
      try {
        await releaseClaims(this.options.db, unstarted);
      } catch (error) {
        // Their leases end on their own: due again then.
        this.options.logger.warn({ err: error }, 'webhook claims not released');
      }
      for (const d of unstarted) this.held.delete(d.id);
    }
    await Promise.allSettled([...this.attempts]);
    await this.flush();
    this.options.attempt.connections.close();
  }

  /** How many more deliveries a claim may take now: one capacity ahead of the attempts in flight. */
  private room(): number {
    return 2 * this.options.concurrency - this.total - this.queuedTotal;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      const free = this.room();
      if (free > 0) {
        try {
          claimed = await this.claim(free);
        } catch (error) {
          this.options.logger.warn({ err: error }, 'webhook delivery claim failed');
        }
      }
      if (!this.running) break;
      // Then wait: for a queue running low on a saturated endpoint (or in all: release() wakes the loop), else for
      // the dispatcher's wake-up or the next poll (retries coming due). A wake-up that came during the claim (new
      // deliveries its snapshot may not have seen) means claiming again at once.
      if (this.wakeRequested) {
        this.wakeRequested = false;
        if (claimed > 0 || free > 0) continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.idlePollMs);
        timer.unref();
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
      this.wakeRequested = false;
    }
  }

  private async claim(free: number): Promise<number> {
    const { leaseSeconds } = this.options;
    // What an endpoint already has claimed in this process: in flight and queued.
    const busy = new Map(this.inFlight);
    for (const [endpointId, queue] of this.queued) busy.set(endpointId, (busy.get(endpointId) ?? 0) + queue.length);
    for (const endpointId of this.gone) busy.set(endpointId, this.reach.of(endpointId));
    // The reach this claim asks with: judged against it afterwards (one that grew while the claim ran must not make
    // a claim that got all it asked for look short — that endpoint would wait for the idle poll).
    const asked = new Map(this.reach.grown);
    const reachAsked = (endpointId: string) => asked.get(endpointId) ?? this.reach.base;
    const claimed = await claimDueDeliveries(this.options.db, {
      claimToken: newClaimToken(),
      leaseSeconds,
      perEndpoint: this.reach.base,
      reach: asked,
      total: free,
      busy,
      held: this.held,
      after: this.after,
    });
    const perEndpoint = new Map<string, number>();
    const lastKey = new Map<string, DueKey>();
    for (const delivery of claimed) {
      perEndpoint.set(delivery.endpointId, (perEndpoint.get(delivery.endpointId) ?? 0) + 1);
      lastKey.set(delivery.endpointId, delivery.dueKey); // claims come in due order: the last one wins
      this.held.add(delivery.id);
      const queue = this.queued.get(delivery.endpointId);
      if (queue) queue.push(delivery);
      else this.queued.set(delivery.endpointId, [delivery]);
      this.queuedTotal++;
    }
    this.totalSaturated = claimed.length >= free;
    // An endpoint that got all the room it had in this claim may have more due. Judged by the room at claim time,
    // not by what is claimed now: attempts that ended during the claim left room that nothing would refill before
    // the idle poll (a fast endpoint was served in bursts, one per WEBHOOKS_DISPATCH_MS).
    for (const [endpointId, n] of perEndpoint) {
      if (n >= reachAsked(endpointId) - (busy.get(endpointId) ?? 0)) {
        this.saturated.add(endpointId);
        this.after.set(endpointId, lastKey.get(endpointId) as DueKey);
      }
    }
    // An endpoint that got less than its room has nothing more due past its start: the next claim starts at the
    // beginning again, and finds whatever became due behind the start (a late outbox event, an ended lease).
    for (const endpointId of [...this.after.keys()]) {
      const room = reachAsked(endpointId) - (busy.get(endpointId) ?? 0);
      if (room > 0 && (perEndpoint.get(endpointId) ?? 0) < room) this.after.delete(endpointId);
    }
    this.wanting.clear();
    for (const endpointId of perEndpoint.keys()) this.startQueued(endpointId);
    return claimed.length;
  }

  /** Starts an endpoint's queued deliveries, in due order, while it and the process have free slots. */
  private startQueued(endpointId: string): void {
    if (this.gone.has(endpointId)) {
      this.dropQueued(endpointId);
      return;
    }
    const queue = this.queued.get(endpointId);
    if (!queue) return;
    while (
      queue.length > 0 &&
      (this.inFlight.get(endpointId) ?? 0) < this.options.endpointConcurrency &&
      this.total < this.options.concurrency
    ) {
      this.queuedTotal--;
      this.launch(queue.shift() as ClaimedDelivery);
    }
    if (queue.length === 0) this.queued.delete(endpointId);
  }

  private launch(delivery: ClaimedDelivery): void {
    this.inFlight.set(delivery.endpointId, (this.inFlight.get(delivery.endpointId) ?? 0) + 1);
    this.total++;
    const attempt = attemptDelivery(this.options.attempt, delivery)
      .then((outcome) => this.record(outcome))
      .catch((error: unknown) => {
        // Nothing was recorded: the lease expires and the delivery is attempted again.
        this.held.delete(delivery.id);
        this.options.logger.error({ err: error, deliveryId: delivery.id }, 'webhook delivery attempt failed');
      })
      .finally(() => {
        this.attempts.delete(attempt);
        this.release(delivery.endpointId);
      });
    this.attempts.add(attempt);
  }

  /**
   * A slot freed: the endpoint's next queued delivery starts at once (or another endpoint's, if the process was
   * at its cap). When a saturated endpoint's queue is down to half a capacity (or the process's queues are, after a
   * claim that got all the room it had) more may be due: claim again. Claims run one at a time, so room freed while
   * one runs is filled together by the next.
   */
  private release(endpointId: string): void {
    const left = (this.inFlight.get(endpointId) ?? 1) - 1;
    if (left === 0) this.inFlight.delete(endpointId);
    else this.inFlight.set(endpointId, left);
    this.total--;
    if (this.running) {
      this.startQueued(endpointId);
      if (this.total < this.options.concurrency) for (const other of [...this.queued.keys()]) this.startQueued(other);
    }
    const queuedHere = this.queued.get(endpointId)?.length ?? 0;
    // Its attempts ran dry while the claim asked for it was on its way: the claim held them back — reach further
    // (doubling, up to the process's capacity) while its attempts succeed.
    if (queuedHere === 0 && this.wanting.delete(endpointId)) this.reach.ranDry(endpointId);
    // The next claim when the queue is down to half of what it may hold beyond the slots (half a capacity at the base).
    const claimAt = (this.reach.of(endpointId) - this.options.endpointConcurrency) / 2;
    if (queuedHere <= claimAt && this.saturated.delete(endpointId)) {
      this.wanting.add(endpointId);
      this.wake();
    } else if (this.totalSaturated && this.queuedTotal <= this.options.concurrency / 2) {
      this.totalSaturated = false;
      this.wake();
    }
  }

  /** An endpoint answered 410: what is queued for it is not started (disabling it fails its pending deliveries). */
  private dropQueued(endpointId: string): void {
    const queue = this.queued.get(endpointId);
    if (!queue) return;
    this.queued.delete(endpointId);
    this.queuedTotal -= queue.length;
    for (const d of queue) this.held.delete(d.id);
  }

  /**
   * An endpoint whose reach shrank (a slow answer, a failure) gives back what it has queued beyond it: due again at
   * once, at their places in the due order — behind where its next claim would start, so that claim starts from
   * the beginning.
   */
  private shrinkTo(endpointId: string): void {
    const queue = this.queued.get(endpointId);
    const keep = Math.max(0, this.reach.of(endpointId) - (this.inFlight.get(endpointId) ?? 0));
    if (!queue || queue.length <= keep) return;
    const excess = queue.splice(keep);
    this.queuedTotal -= excess.length;
    if (queue.length === 0) this.queued.delete(endpointId);
    this.after.delete(endpointId);
    this.saturated.delete(endpointId);
    void releaseClaims(this.options.db, excess)
      .catch((error: unknown) => {
        // Their leases end on their own: due again then.
        this.options.logger.warn({ err: error }, 'webhook claims not released');
      })
      .finally(() => {
        for (const d of excess) this.held.delete(d.id);
      });
  }

  private record(outcome: AttemptOutcome): void {
    if (this.reach.answered(outcome.endpointId, outcome.effect === 'success', outcome.result.durationMs)) {
      this.shrinkTo(outcome.endpointId);
    }
    if (outcome.effect === 'gone') {
      this.gone.add(outcome.endpointId);
      this.dropQueued(outcome.endpointId);
    }
    this.pending.push(outcome);
    if (this.pending.length >= this.recordBatch) void this.flush();
    else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush(), this.recordDelayMs);
      this.flushTimer.unref();
    }
  }

  /** Records the waiting outcomes (one statement), then their endpoint effects; flushes run one after another. */
  flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await recordAttempts(this.options.db, batch);
        await applyEndpointEffects(this.options.effects, batch);
        for (const o of batch) if (o.effect === 'gone') this.gone.delete(o.endpointId);
        // A retry due at once (no back-off configured) is claimed now rather than at the next poll.
        const now = Date.now();
        if (batch.some((o) => o.retryAt && o.retryAt.getTime() <= now)) this.wake();
      } catch (error) {
        // Unrecorded attempts are attempted again when their lease ends (at least once, never lost).
        this.options.logger.warn({ err: error, outcomes: batch.length }, 'webhook delivery outcomes not recorded');
      } finally {
        for (const o of batch) this.held.delete(o.deliveryId);
      }
    });
    return this.flushing;
  }
}

/**
 * How much each endpoint may hold in one process — attempts in flight plus claimed deliveries waiting to start
 * (ADR 0026, amendment "a fast endpoint's reach"). Two capacities (2 × WEBHOOKS_ENDPOINT_CONCURRENCY) until the
 * endpoint shows a claim is what holds it back: its attempts ran out of queued deliveries while the claim asked
 * for it was on its way. Then it doubles, up to the process's capacity (WEBHOOKS_CONCURRENCY), so a claim
 * statement serves hundreds of attempts instead of a few dozen. It follows the endpoint's answers: a failure puts
 * it back to two capacities and keeps it there until a success; an answer slow enough that the queue would not
 * start within a quarter of a lease at that pace (each waits about queue ÷ capacity × answer time) shrinks it to
 * what would. A slow or dead endpoint therefore never holds more than two capacities, as before.
 */
export class EndpointReach {
  private readonly grownReach = new Map<string, number>();
  /** Endpoints whose latest attempt did not succeed: their reach does not grow. */
  private readonly struggling = new Set<string>();

  constructor(
    private readonly options: Pick<DeliveryLanesOptions, 'concurrency' | 'endpointConcurrency' | 'leaseSeconds'>,
  ) {}

  get base(): number {
    return 2 * this.options.endpointConcurrency;
  }

  get max(): number {
    return Math.max(this.base, this.options.concurrency);
  }

  /** Endpoints whose reach is not the base, with theirs. */
  get grown(): ReadonlyMap<string, number> {
    return this.grownReach;
  }

  of(endpointId: string): number {
    return this.grownReach.get(endpointId) ?? this.base;
  }

  /** Its attempts ran out of queued deliveries while a claim for it was on its way: reach further. */
  ranDry(endpointId: string): void {
    if (this.struggling.has(endpointId)) return;
    this.grownReach.set(endpointId, Math.min(2 * this.of(endpointId), this.max));
  }

  /** An attempt's answer. True when the endpoint's reach shrank (what it holds beyond it is to be given back). */
  answered(endpointId: string, success: boolean, durationMs: number): boolean {
    if (success) this.struggling.delete(endpointId);
    else this.struggling.add(endpointId);
    const grown = this.grownReach.get(endpointId);
    if (grown === undefined) return false;
    const { endpointConcurrency, leaseSeconds } = this.options;
    const paced = Math.floor((endpointConcurrency * leaseSeconds * 1000) / (4 * Math.max(1, durationMs)));
    const allowed = success ? Math.min(grown, paced) : this.base;
    if (allowed >= grown) return false;
    if (allowed <= this.base) this.grownReach.delete(endpointId);
    else this.grownReach.set(endpointId, allowed);
    return true;
  }
}
