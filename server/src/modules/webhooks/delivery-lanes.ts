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
}

/**
 * The delivery side of webhooks in one worker process: a loop claims due deliveries (deliver.ts
 * claimDueDeliveries) up to the free capacity — in all and per endpoint — and starts one attempt per delivery
 * without waiting for it; outcomes are recorded in batches (one statement each), then their endpoint effects
 * applied. Capacity is per endpoint: a slow or dead endpoint occupies at most `endpointConcurrency` attempts
 * while every other endpoint keeps being served, and nothing here runs on the sending engine's path.
 */
export class WebhookDeliveryLanes {
  private readonly inFlight = new Map<string, number>();
  private total = 0;
  /** Endpoints whose last claim hit their cap (more may be due): a freed slot there is worth a new claim. */
  private readonly saturated = new Set<string>();
  private totalSaturated = false;
  /** Endpoints with more due than their last claim took: where in their due order the next claim starts. */
  private readonly after = new Map<string, DueKey>();
  /** Endpoints that answered 410 and are being disabled: nothing more is claimed for them meanwhile. */
  private readonly gone = new Set<string>();
  private running = false;
  private loopDone: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private wakeRequested = false;
  private readonly attempts = new Set<Promise<void>>();
  /** Deliveries claimed by this process and not recorded yet. */
  private readonly held = new Set<string>();
  private pending: AttemptOutcome[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly recordBatch: number;
  private readonly recordDelayMs: number;

  constructor(private readonly options: DeliveryLanesOptions) {
    this.recordBatch = options.recordBatch ?? 200;
    this.recordDelayMs = options.recordDelayMs ?? 20;
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

  /** Stops claiming, lets the attempts in flight finish (each bounded by WEBHOOKS_TIMEOUT_MS), records them. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loopDone;
    await Promise.allSettled([...this.attempts]);
    await this.flush();
    this.options.attempt.connections.close();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      const free = this.options.concurrency - this.total;
      if (free > 0) {
        try {
          claimed = await this.claim(free);
        } catch (error) {
          this.options.logger.warn({ err: error }, 'webhook delivery claim failed');
        }
      }
      if (!this.running) break;
      // Then wait: for freed slots when saturated (in all, or an endpoint at its cap: release() wakes the loop),
      // else for the dispatcher's wake-up or the next poll (retries coming due). A wake-up that came during the
      // claim (new deliveries its snapshot may not have seen) means claiming again at once.
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
    const { endpointConcurrency, leaseSeconds } = this.options;
    const busy = new Map(this.inFlight);
    for (const endpointId of this.gone) busy.set(endpointId, endpointConcurrency);
    const claimed = await claimDueDeliveries(this.options.db, {
      claimToken: newClaimToken(),
      leaseSeconds,
      perEndpoint: endpointConcurrency,
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
      this.launch(delivery);
    }
    this.totalSaturated = claimed.length >= free;
    // An endpoint that got all the room it had in this claim may have more due. Judged by the room at claim time,
    // not by what is in flight now: attempts that ended during the claim left slots that nothing would refill
    // before the idle poll (a fast endpoint was served in bursts, one per WEBHOOKS_DISPATCH_MS).
    for (const [endpointId, n] of perEndpoint) {
      if (n >= endpointConcurrency - (busy.get(endpointId) ?? 0)) {
        this.saturated.add(endpointId);
        this.after.set(endpointId, lastKey.get(endpointId) as DueKey);
      }
    }
    // An endpoint that got less than its room has nothing more due past its start: the next claim starts at the
    // beginning again, and finds whatever became due behind the start (a late outbox event).
    for (const endpointId of [...this.after.keys()]) {
      const room = endpointConcurrency - (busy.get(endpointId) ?? 0);
      if (room > 0 && (perEndpoint.get(endpointId) ?? 0) < room) this.after.delete(endpointId);
    }
    return claimed.length;
  }

  private launch(delivery: ClaimedDelivery): void {
    this.inFlight.set(delivery.endpointId, (this.inFlight.get(delivery.endpointId) ?? 0) + 1);
    this.total++;
    this.held.add(delivery.id);
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
   * A slot freed: on a saturated endpoint (or with all capacity taken) deliveries may be waiting, so claim again
   * at once. Claims run one at a time, so slots freed while one runs are filled together by the next: claims
   * follow the attempts' pace without one statement per freed slot. (Waiting for half the capacity to come back
   * left a quarter of it idle on average: throughput is in flight ÷ attempt latency.)
   */
  private release(endpointId: string): void {
    const left = (this.inFlight.get(endpointId) ?? 1) - 1;
    if (left === 0) this.inFlight.delete(endpointId);
    else this.inFlight.set(endpointId, left);
    this.total--;
    if (this.saturated.delete(endpointId)) this.wake();
    else if (this.totalSaturated) {
      this.totalSaturated = false;
      this.wake();
    }
  }

  private record(outcome: AttemptOutcome): void {
    if (outcome.effect === 'gone') this.gone.add(outcome.endpointId);
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
