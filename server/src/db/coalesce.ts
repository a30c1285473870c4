import type { Db } from './database';
import { perDatabase } from './per-database';

/** How a coalesced operation runs: alone, or as one round of several requests (see coalesce). */
export interface CoalesceRounds<I, O> {
  /** At most this many requests share one round. */
  max: number;
  /** One request alone: its own answer or its own error. */
  alone(db: Db, queue: string, item: I): Promise<O>;
  /** Several requests in one round: one answer each, in order. Throws only as a whole (nothing of it took effect). */
  together(db: Db, queue: string, items: I[]): Promise<O[]>;
}

interface Waiter<I, O> {
  item: I;
  resolve(result: O): void;
  reject(error: unknown): void;
}

interface Queue<I, O> {
  waiting: Waiter<I, O>[];
  running: boolean;
}

/**
 * Requests that arrive while a round of the same queue (per database, per `queue` name) is in flight wait for it
 * to end, then ALL of them go as the next round, one statement for the lot — a commit per round of arrivals under
 * load instead of one per request, and no added delay when the queue is idle (a lone request runs at once, alone).
 * There is no timer: a round is whatever arrived meanwhile. A round that fails as a whole runs its requests alone, in
 * arrival order, so each gets exactly the answer or error it would have had alone. Per process; across processes
 * each round is still one statement under PostgreSQL's own locks.
 */
export function coalesce<I, O>(rounds: CoalesceRounds<I, O>): (db: Db, queue: string, item: I) => Promise<O> {
  const queuesByDb = perDatabase(() => new Map<string, Queue<I, O>>());

  const runRound = async (db: Db, name: string, round: Waiter<I, O>[]): Promise<void> => {
    if (round.length > 1) {
      // Rolled back as a whole: each request runs alone below and gets its own answer or error.
      const results = await rounds
        .together(
          db,
          name,
          round.map((w) => w.item),
        )
        .catch(() => null);
      if (results) {
        for (const [i, waiter] of round.entries()) waiter.resolve(results[i] as O);
        return;
      }
    }
    for (const waiter of round) {
      try {
        waiter.resolve(await rounds.alone(db, name, waiter.item));
      } catch (error) {
        waiter.reject(error);
      }
    }
  };

  const drain = async (db: Db, name: string, queues: Map<string, Queue<I, O>>, queue: Queue<I, O>) => {
    queue.running = true;
    try {
      while (queue.waiting.length > 0) await runRound(db, name, queue.waiting.splice(0, rounds.max));
    } finally {
      queue.running = false;
      if (queues.get(name) === queue && queue.waiting.length === 0) queues.delete(name);
    }
  };

  return (db, name, item) => {
    const queues = queuesByDb.of(db);
    let queue = queues.get(name);
    if (!queue) {
      queue = { waiting: [], running: false };
      queues.set(name, queue);
    }
    const result = new Promise<O>((resolve, reject) => {
      queue.waiting.push({ item, resolve, reject });
    });
    if (!queue.running) void drain(db, name, queues, queue);
    return result;
  };
}
