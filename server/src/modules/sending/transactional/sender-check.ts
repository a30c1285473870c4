import type { Db } from '../../../db/database';

/**
 * THE call site of the sender check for transactional messages. Today it validates the From as the campaign
 * send path does (an address is required; the shared schema already normalised it). Issue 14 (verified
 * senders) exports the real check — a verified address or an address at a verified domain of the account —
 * and it is called from here, once per distinct From of a request, before anything is charged.
 */
export async function assertTransactionalSender(_db: Db, _accountId: string, fromEmail: string): Promise<void> {
  if (!fromEmail) throw new Error('transactional sender without an address (the schema requires one)');
}
