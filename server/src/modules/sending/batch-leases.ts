import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';

/** How many renewals fit in one lease: three may be late (a slow statement, a busy event loop) before it expires. */
const RENEWALS_PER_LEASE = 4;

/**
 * The leases of the batches (message_batches, status sending) this worker is delivering right now. While any is
 * held, a timer moves their claimed_at to now() every SENDING_LEASE_SECONDS / 4, so a batch stays this worker's
 * for as long as the worker is alive and working on it — the rate limiter's waits, a slow relay, signing
 * included — and the lease sweep re-queues only the batches of a worker that stopped renewing: a dead process,
 * or one whose event loop is stuck for a whole lease.
 *
 * Only the batches registered with hold() are renewed, never "everything claimed_by this worker": a batch left in
 * status sending by an error in this living process (a failed record statement) is released here by the caller's
 * `finally`, so its lease still runs out and another worker re-sends it. The renewal is guarded by claimed_by, so
 * a batch already re-claimed elsewhere is never taken back.
 */
export class BatchLeases {
  private readonly held = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly workerId: string,
    private readonly leaseSeconds: number,
    private readonly logger: Logger,
  ) {}

  /** Runs `work` with the batches' leases renewed until it settles (resolved or thrown). */
  async during<T>(batchIds: readonly number[], work: () => Promise<T>): Promise<T> {
    this.hold(batchIds);
    try {
      return await work();
    } finally {
      this.release(batchIds);
    }
  }

  /** The batch ids held now (a batch claimed by two lanes of this process at once counts twice). */
  heldIds(): number[] {
    return [...this.held.keys()];
  }

  private hold(batchIds: readonly number[]): void {
    for (const id of batchIds) this.held.set(id, (this.held.get(id) ?? 0) + 1);
    if (this.held.size > 0 && !this.timer) {
      this.timer = setInterval(() => void this.renew(), (this.leaseSeconds * 1000) / RENEWALS_PER_LEASE);
      // A worker that is shutting down must not be kept alive by its lease timer.
      this.timer.unref();
    }
  }

  private release(batchIds: readonly number[]): void {
    for (const id of batchIds) {
      const count = (this.held.get(id) ?? 0) - 1;
      if (count > 0) this.held.set(id, count);
      else this.held.delete(id);
    }
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** One renewal of every held lease; a renewal still running is not doubled. A failure is logged, never thrown. */
  renew(): Promise<void> {
    if (this.renewing) return this.renewing;
    const ids = this.heldIds();
    if (ids.length === 0) return Promise.resolve();
    this.renewing = (async () => {
      try {
        await this.db.execute(
          sql`update message_batches set claimed_at = now()
               where id in (${sql.join(
                 ids.map((id) => sql`${id}`),
                 sql`, `,
               )}) and claimed_by = ${this.workerId} and status = 'sending'`,
        );
      } catch (error) {
        // The next tick tries again; if the database stays away longer than the lease, the batch is re-sent
        // by another worker (the documented at-least-once window).
        this.logger.warn({ err: error, batches: ids.length }, 'sending engine: lease renewal failed');
      } finally {
        this.renewing = null;
      }
    })();
    return this.renewing;
  }
}
