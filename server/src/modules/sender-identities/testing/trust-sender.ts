import type { Db } from '../../../db/database';
import { senderAddresses } from '../sender-identities.db';

/**
 * Tests and benchmarks: marks `email` a confirmed sender address of the account, as if its owner had opened
 * the confirmation link (only verified senders may send). Idempotent.
 */
export async function trustSenderAddress(db: Db, accountId: string, email: string): Promise<void> {
  await db
    .insert(senderAddresses)
    .values({ accountId, email: email.trim().toLowerCase(), confirmedAt: new Date() })
    .onConflictDoUpdate({
      target: [senderAddresses.accountId, senderAddresses.email],
      set: { confirmedAt: new Date(), tokenHash: null, tokenExpiresAt: null },
    });
}
