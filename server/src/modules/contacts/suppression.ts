import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { suppressions } from './contacts.db';
import { hashEmail } from './email-hash';

/** Adds a normalised address to the account's suppression list (idempotent). */
export async function suppressEmail(
  db: Db,
  accountId: string,
  normalisedEmail: string,
  reason: (typeof suppressions.$inferInsert)['reason'],
): Promise<void> {
  await db
    .insert(suppressions)
    .values({ accountId, emailHash: hashEmail(normalisedEmail), reason })
    .onConflictDoNothing();
}

/** The subset of the given normalised addresses that the account suppresses. */
export async function findSuppressed(db: Db, accountId: string, normalisedEmails: string[]): Promise<Set<string>> {
  if (normalisedEmails.length === 0) return new Set();
  const byHash = new Map(normalisedEmails.map((email) => [hashEmail(email), email]));
  const rows = await db
    .select({ emailHash: suppressions.emailHash })
    .from(suppressions)
    .where(and(eq(suppressions.accountId, accountId), inArray(suppressions.emailHash, [...byHash.keys()])));
  return new Set(rows.map((row) => byHash.get(row.emailHash) as string));
}
