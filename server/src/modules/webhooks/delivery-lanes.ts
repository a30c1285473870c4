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
import type { DeliveryBirths } from './dispatch';

/** Due keys compare as PostgreSQL's text of the two timestamps (one session time zone: same width and order). */
function dueBefore(a: DueKey, b: DueKey): boolean {
  return a.at < b.at || (a.at === b.at && a.created < b.created);
}

export interface DeliveryLanesOptions {
  db: Db;
  attempt: AttemptDeps;
  effects: EndpointEffectDeps;
  logger: Pick<Logger, 'warn' | 'info' | 'error'>;
  /** Attempts in flight in this process, all endpoints together. */
  concurrency: number;
  /** Attempts in flight per endpoint in this process. */
  endpointConcurrency: number;
  /**
   * Attempts in flight per account in this process, all its endpoints together; its slow, dead or new endpoints
   * hold at most twice this (queued included).
   */
  accountConcurrency: number;
  leaseSeconds: number;
  /** How often an idle loop looks for due deliveries (retries coming due) when nothing wakes it. */
  idlePollMs: number;
  /** Outcomes are recorded in batches: at this many, or this long after the first one waiting. */
  recordBatch?: number;
  recordDelayMs?: number;
}

/**
 * The delivery side of webhooks in one worker process: a loop claims due deliveries (deliver.ts
 * claimDueDeliveries) and starts one attempt per delivery without waiting for it, up to the capacity — in all and
 * per endpoint; outcomes are recorded in batches (one statement each), then their endpoint effects applied.
 * Capacity is per endpoint: a slow or dead endpoint occupies at most `endpointConcurrency` attempts while every
 * other endpoint keeps being served, and nothing here runs on the sending engine's path. And per account: all of an
 * account's endpoints together occupy at most `accountConcurrency` attempts, and its slow, dead or new ones hold at
 * most twice that, so no number of slow or dead endpoints of one account takes the process from the others.
 *
 * Claims reach ahead: an endpoint's claim takes up to its reach (in flight + queued), and what cannot start yet
 * waits in the endpoint's queue, in due order, and starts as a slot frees. The next claim for the endpoint comes
 * when its queue is running low. The reach is twice the endpoint's capacity, or two seconds of the endpoint's
 * recent pace if that is more (up to 16 × the process's capacity): a fast endpoint is handed thousands at a time,
 * a slow or dead one never more than twice its slots, and whatever is queued starts well within its lease.
 *
 * Deliveries born claimed (`births`, dispatch.ts): the dispatcher of this process asks for each endpoint's room
 * and inserts that many of the endpoint's new deliveries already claimed by this process, handed over here in event
 * order — no claim statement, no claim update. An endpoint with deliveries waiting in the index (its last claim
 * or birth round had more than its room) gets no births until a claim has caught up with them: they are older.
 */
export class WebhookDeliveryLanes {
  private readonly inFlight = new Map<string, number>();
  private total = 0;
  /** Each endpoint's account, learned from its deliveries; attempts in flight per account. */
  private readonly accountOf = new Map<string, string>();
  private readonly accountInFlight = new Map<string, number>();
  /** Claimed, not started yet (the endpoint is at its cap, or the process is), per endpoint in due order. */
  private readonly queued = new Map<string, ClaimedDelivery[]>();
  private queuedTotal = 0;
  /** Endpoints whose last claim got all the room it had (more may be due): their queue running low is worth a claim. */
  private readonly saturated = new Set<string>();
  private totalSaturated = false;
  /** Endpoints with more due than their last claim took: where in their due order the next claim starts. */
  private readonly after = new Map<string, DueKey>();
  /** Attempts ended per endpoint in the current second; its pace: attempts per second in the last second it had work. */
  private paceNow = new Map<string, number>();
  private readonly pace = new Map<string, number>();
  private paceSince = 0;
  /** When each queued delivery was claimed (or born claimed): a queue older than half a lease is given back. */
  private readonly claimedAt = new Map<string, number>();
  /** Endpoints that answered 410 and are being disabled: nothing more is claimed or started for them meanwhile. */
  private readonly gone = new Set<string>();
  private running = false;
  private loopDone: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private wakeRequested = false;
  private readonly attempts = new Set<Promise<void>>();
  /** Deliveries claimed by this process and not recorded yet (queued, attempting, or outcome waiting): since when. */
  private readonly held = new Map<string, number>();
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
      for (const d of unstarted) {
        this.held.delete(d.id);
        this.claimedAt.delete(d.id);
      }
    }
    await Promise.allSettled([...this.attempts]);
    await this.flush();
    this.options.attempt.connections.close();
  }

  /**
   * Elapsed time, the lanes' only clock read: an endpoint's pace per second, how long a queue has waited against
   * its lease, whether a retry is due at once.
   */
  private now(): number {
    return Date.now();
  }

  /** Twice an endpoint's capacity: the reach of an endpoint whose pace is unknown, slow or failing. */
  private baseReach(): number {
    return 2 * this.options.endpointConcurrency;
  }

  /**
   * Each second, an endpoint that had work (attempts ended, in flight or queued) gets its pace measured again; an
   * idle one keeps its last pace (idle says nothing of how fast it answers: the engine had nothing to report). An
   * endpoint whose attempts all hang while more are queued ends none: its pace falls to 0.
   */
  private rollPace(now = this.now()): void {
    const elapsed = now - this.paceSince;
    if (elapsed < 1000) return;
    const busy = new Set([...this.paceNow.keys(), ...this.inFlight.keys(), ...this.queued.keys()]);
    for (const endpointId of busy) {
      const measured = Math.round(((this.paceNow.get(endpointId) ?? 0) * 1000) / elapsed);
      // With deliveries still queued the endpoint was kept busy: the second measured what it takes. Without, its
      // work may have run out mid-second: the measure is a floor, and does not lower the pace.
      const full = (this.queued.get(endpointId)?.length ?? 0) > 0;
      this.pace.set(endpointId, full ? measured : Math.max(measured, this.pace.get(endpointId) ?? 0));
    }
    this.paceNow = new Map();
    this.paceSince = now;
  }

  /**
   * How many deliveries an endpoint may hold in this process (in flight + queued): two seconds of its pace over
   * the last whole second, at least twice its capacity, at most 16 × the process's capacity. A queue of that size
   * drains in about two seconds at the pace it was measured at — far inside a lease.
   */
  private reach(endpointId: string): number {
    this.rollPace();
    const pace = this.pace.get(endpointId) ?? 0;
    return Math.min(16 * this.options.concurrency, Math.max(this.baseReach(), 2 * pace));
  }

  private heldBy(endpointId: string): number {
    return (this.inFlight.get(endpointId) ?? 0) + (this.queued.get(endpointId)?.length ?? 0);
  }

  /** Twice an account's capacity: what its slow, dead or new endpoints may hold together. */
  private accountBase(): number {
    return 2 * this.options.accountConcurrency;
  }

  /**
   * The endpoints that count against their account's base: those whose pace is not known to be fast (slow, dead,
   * new). A fast endpoint answers within its reach and frees its slots quickly — several fast endpoints of one
   * account keep their queues (and births) as if alone; one that stops answering loses its pace within a second.
   */
  private countsAgainstAccount(endpointId: string): boolean {
    return this.accountOf.has(endpointId) && this.reach(endpointId) <= this.baseReach();
  }

  /** What each account's slow, dead or new endpoints hold in this process (in flight + queued). */
  private heldByAccount(): Map<string, number> {
    const held = new Map<string, number>();
    for (const endpointId of this.knownEndpoints()) {
      if (!this.countsAgainstAccount(endpointId)) continue;
      const accountId = this.accountOf.get(endpointId) as string;
      held.set(accountId, (held.get(accountId) ?? 0) + this.heldBy(endpointId));
    }
    return held;
  }

  /** The slow, dead or new endpoints of accounts holding their whole base: a claim or a birth gives them no room. */
  private endpointsOfFullAccounts(): Set<string> {
    const held = this.heldByAccount();
    const full = new Set<string>();
    for (const endpointId of this.knownEndpoints()) {
      if (!this.countsAgainstAccount(endpointId)) continue;
      if ((held.get(this.accountOf.get(endpointId) as string) ?? 0) >= this.accountBase()) full.add(endpointId);
    }
    return full;
  }

  /** Endpoints this process knows of now: what a claim's or a birth's room is computed for. */
  private knownEndpoints(): Set<string> {
    return new Set([
      ...this.inFlight.keys(),
      ...this.queued.keys(),
      ...this.pace.keys(),
      ...this.after.keys(),
      ...this.gone.keys(),
    ]);
  }

  /** How many more deliveries this process may take now, all endpoints together. */
  private room(): number {
    let cap = 2 * this.options.concurrency;
    for (const endpointId of this.knownEndpoints()) cap += this.reach(endpointId) - this.baseReach();
    return cap - this.total - this.queuedTotal;
  }

  /**
   * How many engine batches (of `batchSize` messages) the dispatcher should expand now. Once an endpoint's pace is
   * known to be fast (its reach above the base), the outbox is expanded only as far as the fastest such endpoint
   * has room to take at birth: the rest waits in the outbox (one coalesced row per batch) for the next round —
   * rather than born due into the index, where the claims that catch up with it walk every dead entry the run left
   * behind (while any transaction anywhere in the cluster holds back the horizon, none is ever skipped cheaply).
   * A slow or new endpoint's room does not hold the outbox back: with no fast endpoint, everything is expanded
   * (what does not fit is born due, as before).
   */
  batchesToExpand(batchSize: number, most: number): number {
    if (!this.running) return most;
    let fast = false;
    let batches = 0;
    for (const endpointId of this.knownEndpoints()) {
      const reach = this.reach(endpointId);
      if (this.gone.has(endpointId) || reach <= this.baseReach()) continue;
      fast = true;
      if (this.after.has(endpointId)) continue;
      const room = reach - this.heldBy(endpointId);
      // At least one batch once half the reach is free, whatever the batch size: an idle endpoint keeps the pace
      // of its last busy second, which may be below one batch's worth — it must still be fed.
      batches = Math.max(batches, Math.floor(room / Math.max(1, batchSize)), room >= reach / 2 ? 1 : 0);
    }
    if (!fast) return most;
    return Math.min(most, batches);
  }

  /** The dispatcher's side (dispatch.ts): what this process takes at birth, and how it receives it. */
  readonly births: DeliveryBirths = {
    plan: () => {
      if (!this.running || this.room() <= 0) return null;
      const rooms = new Map<string, number>();
      const full = this.endpointsOfFullAccounts();
      for (const endpointId of this.knownEndpoints()) {
        const blocked = this.after.has(endpointId) || this.gone.has(endpointId) || full.has(endpointId);
        rooms.set(endpointId, blocked ? 0 : Math.max(0, this.reach(endpointId) - this.heldBy(endpointId)));
      }
      return {
        claimToken: newClaimToken(),
        leaseSeconds: this.options.leaseSeconds,
        rooms,
        defaultRoom: this.baseReach(),
      };
    },
    adopt: (born, overflow) => this.adopt(born, overflow),
  };

  private adopt(born: ClaimedDelivery[], overflow: Map<string, DueKey>): void {
    if (!this.running) {
      // Stopping meanwhile: due again at once for any worker.
      if (born.length > 0) {
        void releaseClaims(this.options.db, born).catch((error: unknown) =>
          this.options.logger.warn({ err: error }, 'webhook claims not released'),
        );
      }
      return;
    }
    // Deliveries born due past an endpoint's room are younger than those born claimed: the next claim starts there.
    for (const [endpointId, key] of overflow) {
      if (!this.after.has(endpointId)) this.after.set(endpointId, key);
      this.saturated.add(endpointId);
    }
    const now = this.now();
    const touched = new Set<string>();
    for (const delivery of born) {
      this.held.set(delivery.id, now);
      this.claimedAt.set(delivery.id, now);
      this.enqueue(delivery);
      touched.add(delivery.endpointId);
    }
    for (const endpointId of touched) this.startQueued(endpointId);
    void this.giveBackAccountExcess();
    if (overflow.size > 0) this.wake();
  }

  /** Into its endpoint's queue at its place in due order (almost always the end: from the back). */
  private enqueue(delivery: ClaimedDelivery): void {
    this.accountOf.set(delivery.endpointId, delivery.accountId);
    this.queuedTotal++;
    const queue = this.queued.get(delivery.endpointId);
    if (!queue) {
      this.queued.set(delivery.endpointId, [delivery]);
      return;
    }
    let i = queue.length;
    while (i > 0 && dueBefore(delivery.dueKey, (queue[i - 1] as ClaimedDelivery).dueKey)) i--;
    queue.splice(i, 0, delivery);
  }

  /**
   * An endpoint whose queue has waited half a lease (it slowed down after its reach was set by a faster pace) keeps
   * two capacities and gives the rest back — due again at once, at their places in the due order — before any other
   * worker could take them a second time when their leases end.
   */
  private async giveBackStale(): Promise<void> {
    const limit = this.now() - (this.options.leaseSeconds * 1000) / 2;
    for (const [endpointId, queue] of this.queued) {
      const head = queue[0];
      if (!head || (this.claimedAt.get(head.id) ?? limit) > limit || queue.length <= this.baseReach()) continue;
      const back = queue.splice(this.baseReach());
      this.queuedTotal -= back.length;
      this.pace.delete(endpointId);
      this.paceNow.delete(endpointId);
      this.after.delete(endpointId); // given back behind the start: the next claim starts at the beginning
      try {
        await releaseClaims(this.options.db, back);
      } catch (error) {
        this.options.logger.warn({ err: error }, 'webhook claims not released');
      }
      for (const d of back) {
        this.held.delete(d.id);
        this.claimedAt.delete(d.id);
      }
    }
  }

  /**
   * An account holding more than its base — its endpoints were new to this process, and a claim or a birth gave
   * each its own room, or a fast one slowed down — gives the excess back at once: the youngest of its longest queues, due again at their
   * places in the due order (each endpoint's next claim starts there). Its queues never keep the process's room from
   * other accounts.
   */
  private async giveBackAccountExcess(): Promise<void> {
    const back: ClaimedDelivery[] = [];
    for (const [accountId, held] of this.heldByAccount()) {
      let excess = held - this.accountBase();
      const queues = [...this.queued].filter(
        ([endpointId]) => this.accountOf.get(endpointId) === accountId && this.countsAgainstAccount(endpointId),
      );
      while (excess > 0) {
        const longest = queues.reduce<[string, ClaimedDelivery[]] | null>(
          (best, q) => (q[1].length > (best?.[1].length ?? 0) ? q : best),
          null,
        );
        if (!longest) break;
        const [endpointId, queue] = longest;
        const given = queue.pop() as ClaimedDelivery;
        back.push(given);
        this.queuedTotal--;
        excess--;
        // The endpoint's next claim starts at the oldest given back (popped last), and until a claim has caught up
        // with them it gets no births: younger deliveries never start before them.
        this.after.set(endpointId, given.dueKey);
        if (queue.length === 0) this.queued.delete(endpointId);
      }
    }
    if (back.length === 0) return;
    for (const d of back) {
      this.held.delete(d.id);
      this.claimedAt.delete(d.id);
    }
    try {
      await releaseClaims(this.options.db, back);
    } catch (error) {
      // Their leases end on their own: due again then.
      this.options.logger.warn({ err: error }, 'webhook claims not released');
    }
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      await this.giveBackStale();
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
    const base = this.baseReach();
    // What an endpoint already holds in this process (in flight and queued), less the reach its pace adds to the
    // base: the claim's room per endpoint is base - busy.
    const busy = new Map<string, number>();
    for (const endpointId of this.knownEndpoints()) {
      busy.set(endpointId, this.heldBy(endpointId) - (this.reach(endpointId) - base));
    }
    for (const endpointId of this.gone) busy.set(endpointId, base);
    for (const endpointId of this.endpointsOfFullAccounts()) busy.set(endpointId, base);
    const roomOf = (endpointId: string) => base - (busy.get(endpointId) ?? 0);
    const now = this.now();
    const claimed = await claimDueDeliveries(this.options.db, {
      claimToken: newClaimToken(),
      leaseSeconds,
      perEndpoint: base,
      total: free,
      busy,
      // Only a delivery held past half its lease can be due again in the table (an attempt outlasting it): the
      // others need not be excluded, and a claim tests every row it takes against this list.
      held: new Set([...this.held].filter(([, since]) => since < now - (leaseSeconds * 1000) / 2).map(([id]) => id)),
      after: this.after,
    });
    const perEndpoint = new Map<string, number>();
    const lastKey = new Map<string, DueKey>();
    for (const delivery of claimed) {
      perEndpoint.set(delivery.endpointId, (perEndpoint.get(delivery.endpointId) ?? 0) + 1);
      lastKey.set(delivery.endpointId, delivery.dueKey); // claims come in due order: the last one wins
      this.held.set(delivery.id, now);
      this.claimedAt.set(delivery.id, now);
      this.enqueue(delivery);
    }
    this.totalSaturated = claimed.length >= free;
    // An endpoint that got all the room it had in this claim may have more due. Judged by the room at claim time,
    // not by what is claimed now: attempts that ended during the claim left room that nothing would refill before
    // the idle poll (a fast endpoint was served in bursts, one per WEBHOOKS_DISPATCH_MS).
    for (const [endpointId, n] of perEndpoint) {
      if (n >= roomOf(endpointId)) {
        this.saturated.add(endpointId);
        this.after.set(endpointId, lastKey.get(endpointId) as DueKey);
      }
    }
    // An endpoint that got less than its room has nothing more due past its start: the next claim starts at the
    // beginning again, and finds whatever became due behind the start (a late outbox event, an ended lease).
    for (const endpointId of [...this.after.keys()]) {
      const room = roomOf(endpointId);
      if (room > 0 && (perEndpoint.get(endpointId) ?? 0) < room) this.after.delete(endpointId);
    }
    for (const endpointId of perEndpoint.keys()) this.startQueued(endpointId);
    await this.giveBackAccountExcess();
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
    const accountId = this.accountOf.get(endpointId) as string;
    while (
      queue.length > 0 &&
      (this.inFlight.get(endpointId) ?? 0) < this.options.endpointConcurrency &&
      (this.accountInFlight.get(accountId) ?? 0) < this.options.accountConcurrency &&
      this.total < this.options.concurrency
    ) {
      this.queuedTotal--;
      this.launch(queue.shift() as ClaimedDelivery);
    }
    if (queue.length === 0) this.queued.delete(endpointId);
  }

  private launch(delivery: ClaimedDelivery): void {
    this.claimedAt.delete(delivery.id);
    this.inFlight.set(delivery.endpointId, (this.inFlight.get(delivery.endpointId) ?? 0) + 1);
    this.accountInFlight.set(delivery.accountId, (this.accountInFlight.get(delivery.accountId) ?? 0) + 1);
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
        this.release(delivery.endpointId, delivery.accountId);
      });
    this.attempts.add(attempt);
  }

  /**
   * A slot freed: the endpoint's next queued delivery starts at once (or another endpoint's, if the process was
   * at its cap). When a saturated endpoint's queue is down to half a capacity (or the process's queues are, after a
   * claim that got all the room it had) more may be due: claim again. Claims run one at a time, so room freed while
   * one runs is filled together by the next.
   */
  private release(endpointId: string, accountId: string): void {
    this.rollPace();
    this.paceNow.set(endpointId, (this.paceNow.get(endpointId) ?? 0) + 1);
    const left = (this.inFlight.get(endpointId) ?? 1) - 1;
    if (left === 0) this.inFlight.delete(endpointId);
    else this.inFlight.set(endpointId, left);
    const accountLeft = (this.accountInFlight.get(accountId) ?? 1) - 1;
    if (accountLeft === 0) this.accountInFlight.delete(accountId);
    else this.accountInFlight.set(accountId, accountLeft);
    this.total--;
    if (this.running) {
      this.startQueued(endpointId);
      // A slot of the process or of the account freed: whatever waited on either may start.
      for (const other of [...this.queued.keys()]) this.startQueued(other);
    }
    const queuedHere = this.queued.get(endpointId)?.length ?? 0;
    const low = Math.max(this.options.endpointConcurrency / 2, this.reach(endpointId) / 4);
    if (queuedHere <= low && this.saturated.delete(endpointId)) this.wake();
    else if (this.totalSaturated && this.queuedTotal <= this.options.concurrency / 2) {
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
    for (const d of queue) {
      this.held.delete(d.id);
      this.claimedAt.delete(d.id);
    }
  }

  private record(outcome: AttemptOutcome): void {
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
        const now = this.now();
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
