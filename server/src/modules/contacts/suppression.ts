import { normaliseEmail } from '@carteiro/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
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

/**
 * Unsubscribe → suppression (CAPEM/LGPD: the opt-out must survive the contact, so a deleted contact re-imported,
 * re-typed or re-sent through the API is still never mailed). Adds reason "unsubscribed" for those of the given
 * contacts of the account that are subscribed to no list any more (the contact left everything; leaving one list
 * of several is not an account-wide opt-out). One statement whatever the number of contacts; the hash is computed
 * by the database exactly as `hashEmail` does (and as the sending engine and the imports read it). Idempotent: an
 * address already suppressed keeps its reason (erased, bounced, complained, manual). Run it in the transaction
 * that changes the memberships.
 */
export async function suppressUnsubscribedContacts(db: Db, accountId: string, contactIds: string[]): Promise<void> {
  if (contactIds.length === 0) return;
  await db.execute(
    sql`insert into suppressions (account_id, email_hash, reason)
        select c.account_id, encode(sha256(convert_to(c.email, 'UTF8')), 'hex'), 'unsubscribed'
          from contacts c
         where c.account_id = ${accountId}
           and c.id in (${sql.join(
             contactIds.map((id) => sql`${id}::uuid`),
             sql`, `,
           )})
           and not exists (select 1 from list_memberships m where m.contact_id = c.id and m.status = 'subscribed')
        on conflict (account_id, email_hash) do nothing`,
  );
}

/**
 * The person's own new consent (resubscribe or a list kept on the unsubscribe page's preference centre, a
 * confirmed double opt-in) lifts the "unsubscribed" entry of the contact's address, once the contact is
 * subscribed to a list again — and only that reason: erasure, bounces, complaints and the sender's manual entries
 * are never lifted this way. Never call it for a sender's action (import, new contact, edit, adding to a list): a
 * sender cannot undo a recipient's opt-out.
 */
export async function liftUnsubscribedSuppression(db: Db, accountId: string, contactId: string): Promise<void> {
  await db.execute(
    sql`delete from suppressions s
         using contacts c
         where c.id = ${contactId} and c.account_id = ${accountId}
           and s.account_id = c.account_id
           and s.email_hash = encode(sha256(convert_to(c.email, 'UTF8')), 'hex')
           and s.reason = 'unsubscribed'
           and exists (select 1 from list_memberships m where m.contact_id = c.id and m.status = 'subscribed')`,
  );
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

/**
 * `findSuppressed` as a SQL expression (a text[] of the suppressed addresses' hashes, `hashEmail`), for a hot path
 * that folds the probe into a statement of its own. Map the hashes back with `hashEmail`.
 */
export function suppressedHashesSql(accountId: string, normalisedEmails: string[]): SQL {
  const hashes = [...new Set(normalisedEmails.map(hashEmail))];
  return sql`(select coalesce(array_agg(${suppressions.emailHash}), '{}'::text[]) from ${suppressions}
               where ${suppressions.accountId} = ${accountId}
                 and ${suppressions.emailHash} = any(${`{${hashes.join(',')}}`}::text[]))`; // hex: no quoting needed
}

export type SuppressionReason = (typeof suppressions.$inferSelect)['reason'];

export interface SuppressionSummary {
  total: number;
  byReason: Record<SuppressionReason, number>;
}

/** How many addresses the account never mails, by reason (the list holds hashes only, never addresses). */
export async function suppressionSummary(db: Db, accountId: string): Promise<SuppressionSummary> {
  const rows = await db
    .select({ reason: suppressions.reason, count: sql<number>`count(*)::int` })
    .from(suppressions)
    .where(eq(suppressions.accountId, accountId))
    .groupBy(suppressions.reason);
  const byReason: Record<SuppressionReason, number> = {
    erased: 0,
    unsubscribed: 0,
    bounced: 0,
    complained: 0,
    manual: 0,
  };
  for (const row of rows) byReason[row.reason] = Number(row.count);
  return { total: Object.values(byReason).reduce((a, b) => a + b, 0), byReason };
}

export interface AddSuppressionsResult {
  added: number;
  alreadySuppressed: number;
  /** The lines that are not e-mail addresses, as typed (first 100). */
  invalid: string[];
  invalidCount: number;
}

/**
 * Adds addresses the sender typed or pasted (reason "manual"): normalised like every address, invalid lines
 * reported back, addresses already suppressed (for any reason) left as they are. Contacts with these addresses stay
 * in the account but are never mailed; imports and the new-contact form skip them.
 */
export async function addManualSuppressions(
  db: Db,
  accountId: string,
  lines: string[],
): Promise<AddSuppressionsResult> {
  const hashes = new Set<string>();
  const invalid: string[] = [];
  let invalidCount = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const email = normaliseEmail(line);
    if (!email) {
      invalidCount += 1;
      if (invalid.length < 100) invalid.push(line.trim().slice(0, 320));
      continue;
    }
    hashes.add(hashEmail(email));
  }
  if (hashes.size === 0 && invalidCount === 0) {
    throw new AppError('validation_failed', 'Informe ao menos um e-mail.');
  }
  let added = 0;
  const all = [...hashes];
  for (let i = 0; i < all.length; i += 1000) {
    const inserted = await db
      .insert(suppressions)
      .values(all.slice(i, i + 1000).map((emailHash) => ({ accountId, emailHash, reason: 'manual' as const })))
      .onConflictDoNothing()
      .returning({ emailHash: suppressions.emailHash });
    added += inserted.length;
  }
  return { added, alreadySuppressed: hashes.size - added, invalid, invalidCount };
}

export interface SuppressionLookup {
  email: string;
  suppressed: boolean;
  reason: SuppressionReason | null;
  createdAt: string | null;
}

/** Whether one (normalised) address is on the account's suppression list, and why. */
export async function lookupSuppression(db: Db, accountId: string, email: string): Promise<SuppressionLookup> {
  const [row] = await db
    .select({ reason: suppressions.reason, createdAt: suppressions.createdAt })
    .from(suppressions)
    .where(and(eq(suppressions.accountId, accountId), eq(suppressions.emailHash, hashEmail(email))));
  return {
    email,
    suppressed: Boolean(row),
    reason: row?.reason ?? null,
    createdAt: row ? row.createdAt.toISOString() : null,
  };
}

/**
 * Takes an address the sender added by hand off the list. Entries the recipient caused (erasure, unsubscribe,
 * bounce, complaint) stay: only the recipient can undo them, by subscribing again through a form (double opt-in)
 * or, for an unsubscribe, from the unsubscribe page of a message they received (`liftUnsubscribedSuppression`).
 */
export async function removeManualSuppression(db: Db, accountId: string, email: string): Promise<void> {
  const found = await lookupSuppression(db, accountId, email);
  if (!found.suppressed) throw new AppError('not_found', 'Este endereço não está na lista de supressão.');
  if (found.reason !== 'manual') {
    throw new AppError(
      'conflict',
      'Este endereço foi suprimido pelo próprio destinatário ou pelo provedor (descadastro, exclusão, devolução ou reclamação) e não pode ser retirado manualmente. Ele pode voltar a se inscrever por um formulário com confirmação.',
    );
  }
  await db
    .delete(suppressions)
    .where(
      and(
        eq(suppressions.accountId, accountId),
        eq(suppressions.emailHash, hashEmail(email)),
        eq(suppressions.reason, 'manual'),
      ),
    );
}
