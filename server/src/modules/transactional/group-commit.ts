import type { TransactionalMessageInput, TransactionalSendResult } from '@carteiro/shared';
import type { Db } from '../../db/database';
import { perDatabase } from '../../db/per-database';
import {
  commitTransactional,
  type PreparedTransactional,
  prepareTransactional,
  type SendTransactionalOptions,
} from './send-transactional';

/** At most this many requests share one commit (a single send is one message: the batch form's ceiling). */
export const GROUP_COMMIT_MAX = 500;

interface Waiter {
  request: PreparedTransactional;
  resolve(result: TransactionalSendResult): void;
  reject(error: unknown): void;
}

interface AccountQueue {
  waiting: Waiter[];
  running: boolean;
}

/** Per database (each app instance, each test app), per account: the requests waiting for the next commit. */
const queuesByDb = perDatabase(() => new Map<string, AccountQueue>());

/**
 * Group commit of single transactional sends (ADR 0019). Each request is prepared on its own (its validation,
 * template, sender and rendering errors are its alone), then joins its account's queue. While a commit of that
 * account is in flight, the requests that arrive wait; when it ends, ALL of them are stored and charged in one
 * statement (commitTransactional: one account row lock, the inserts and one ledger entry for the group),
 * and each caller gets its own answer (its messages, its cost, the balance after the commit). With nothing in
 * flight a request commits at once: no added delay when the account is quiet, a commit per round of arrivals
 * when it is busy — the account row lock is then taken once per group instead of once per message.
 * A group that fails as a whole (short balance for the lot, or anything unexpected) is rolled back and its
 * requests are committed one by one, in arrival order, so each gets exactly the answer it would have had alone
 * (e.g. the first ones accepted and the rest 402 when the balance covers only part of the group).
 * The queue is per process; across processes the account row lock still serialises commits, as before.
 */
export async function sendTransactionalGrouped(
  db: Db,
  accountId: string,
  input: TransactionalMessageInput,
  options: SendTransactionalOptions,
): Promise<TransactionalSendResult> {
  const request = await prepareTransactional(db, accountId, [input], options);
  const queues = queuesByDb.of(db);
  let queue = queues.get(accountId);
  if (!queue) {
    queue = { waiting: [], running: false };
    queues.set(accountId, queue);
  }
  const result = new Promise<TransactionalSendResult>((resolve, reject) => {
    queue.waiting.push({ request, resolve, reject });
  });
  if (!queue.running) void drain(db, accountId, queues, queue);
  return result;
}

async function drain(db: Db, accountId: string, queues: Map<string, AccountQueue>, queue: AccountQueue) {
  queue.running = true;
  try {
    while (queue.waiting.length > 0) {
      const group = queue.waiting.splice(0, GROUP_COMMIT_MAX);
      await commitGroup(db, accountId, group);
    }
  } finally {
    queue.running = false;
    if (queues.get(accountId) === queue && queue.waiting.length === 0) queues.delete(accountId);
  }
}

async function commitGroup(db: Db, accountId: string, group: Waiter[]): Promise<void> {
  if (group.length > 1) {
    const results = await commitTransactional(
      db,
      accountId,
      group.map((w) => w.request),
    ).catch(() => null); // rolled back as a whole: each request runs alone below and gets its own answer or error
    if (results) {
      for (const [i, waiter] of group.entries()) waiter.resolve(results[i] as TransactionalSendResult);
      return;
    }
  }
  for (const waiter of group) {
    try {
      waiter.resolve(await commitTransactional(db, accountId, waiter.request));
    } catch (error) {
      waiter.reject(error);
    }
  }
}
