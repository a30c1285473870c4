import type { TransactionalMessageInput, TransactionalSendResult } from '@carteiro/shared';
import { coalesce } from '../../db/coalesce';
import type { Db } from '../../db/database';
import {
  commitTransactional,
  type PreparedTransactional,
  prepareTransactional,
  type SendTransactionalOptions,
} from './send-transactional';

/** At most this many requests share one commit (a single send is one message: the batch form's ceiling). */
export const GROUP_COMMIT_MAX = 500;

/** Per database (each app instance, each test app), per account: the requests waiting for the next commit. */
const commitInRounds = coalesce<PreparedTransactional, TransactionalSendResult>({
  max: GROUP_COMMIT_MAX,
  alone: (db, accountId, request) => commitTransactional(db, accountId, request),
  together: (db, accountId, requests) => commitTransactional(db, accountId, requests),
});

/**
 * Group commit of single transactional sends (ADR 0019). Each request is prepared on its own (its validation,
 * template, sender and rendering errors are its alone), then joins its account's queue (db/coalesce.ts). While a commit of that
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
  return commitInRounds(db, accountId, await prepareTransactional(db, accountId, [input], options));
}
