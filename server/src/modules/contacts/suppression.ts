import {
  type AddSuppressionsResult,
  CONSENT_LIFTS,
  MESSAGE_STREAMS,
  type MessageStream,
  normaliseEmail,
  reasonsCovering,
  SUPPRESSION_REASON_PRECEDENCE,
  SUPPRESSION_REASON_VALUES,
  type SuppressionLookup,
  type SuppressionReason,
  type SuppressionSummary,
  strongestSuppressionReason,
  suppressionCovers,
} from '@carteiro/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { suppressions } from './contacts.db';
import { hashEmail } from './email-hash';

export { suppressionCovers };

/** The reasons covering a stream as a SQL text[] literal (the values are fixed words: no quoting needed). */
function reasonsArraySql(stream: MessageStream): SQL {
  return sql.raw(
    `array[${reasonsCovering(stream)
      .map((reason) => `'${reason}'`)
      .join(', ')}]::text[]`,
  );
}

/** The database's `hashEmail` of a normalised address held in SQL. */
export function emailHashSql(email: SQL): SQL {
  return sql`encode(sha256(convert_to(${email}, 'UTF8')), 'hex')`;
}

/**
 * A boolean SQL expression, true when the account holds a suppression of the address that covers the stream
 * (`suppressionCovers`, shared SUPPRESSION_SCOPE): the one probe every claim and send statement folds in. `email` is
 * a normalised address; `stream` a fixed stream or a SQL text (a message's own stream; an unknown value is treated
 * as marketing, the stream every reason covers). One primary-key probe per evaluation.
 */
export function suppressedForStreamSql(accountId: SQL, email: SQL, stream: SQL | MessageStream): SQL {
  const reasons =
    typeof stream === 'string'
      ? reasonsArraySql(stream)
      : sql`(case ${stream} when 'transactional' then ${reasonsArraySql('transactional')}
                            when 'system' then ${reasonsArraySql('system')}
                            else ${reasonsArraySql('marketing')} end)`;
  return sql`exists (select 1 from suppressions s
                      where s.account_id = ${accountId} and s.email_hash = ${emailHashSql(email)}
                        and s.reason = any(${reasons}))`;
}

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
 * by the database exactly as `hashEmail` does (and as the sending engine and the imports read it). Idempotent; an
 * address's other reasons (erased, bounced, complained, manual) stay beside it. Run it in the transaction that
 * changes the memberships.
 */
export async function suppressUnsubscribedContacts(db: Db, accountId: string, contactIds: string[]): Promise<void> {
  if (contactIds.length === 0) return;
  await db.execute(
    sql`insert into suppressions (account_id, email_hash, reason)
        select c.account_id, ${emailHashSql(sql`c.email`)}, 'unsubscribed'
          from contacts c
         where c.account_id = ${accountId}
           and c.id in (${sql.join(
             contactIds.map((id) => sql`${id}::uuid`),
             sql`, `,
           )})
           and not exists (select 1 from list_memberships m where m.contact_id = c.id and m.status = 'subscribed')
        on conflict do nothing`,
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
           and s.email_hash = ${emailHashSql(sql`c.email`)}
           and s.reason = 'unsubscribed'
           and exists (select 1 from list_memberships m where m.contact_id = c.id and m.status = 'subscribed')`,
  );
}

/**
 * The mailbox owner's confirmed consent (a double opt-in link they followed): their unsubscribe and their erasure
 * request give way to it. What the person did not choose (bounces, complaints) and the sender's manual entries stay.
 */
export async function liftSuppressionsByConsent(db: Db, accountId: string, normalisedEmail: string): Promise<void> {
  await db
    .delete(suppressions)
    .where(
      and(
        eq(suppressions.accountId, accountId),
        eq(suppressions.emailHash, hashEmail(normalisedEmail)),
        inArray(suppressions.reason, [...CONSENT_LIFTS]),
      ),
    );
}

/**
 * The strongest of the account's suppressions of the address that cover the stream; null when it may be mailed.
 * `except` leaves reasons out (a double opt-in confirmation the person asked for ignores those their consent lifts).
 */
export async function suppressionReasonFor(
  db: Db,
  accountId: string,
  email: string,
  stream: MessageStream,
  except: readonly SuppressionReason[] = [],
): Promise<SuppressionReason | null> {
  const normalised = normaliseEmail(email) ?? email;
  const rows = await db
    .select({ reason: suppressions.reason })
    .from(suppressions)
    .where(and(eq(suppressions.accountId, accountId), eq(suppressions.emailHash, hashEmail(normalised))));
  return strongestSuppressionReason(
    rows.map((r) => r.reason).filter((reason) => suppressionCovers(reason, stream) && !except.includes(reason)),
  );
}

/** The subset of the given normalised addresses that the account suppresses for the stream. */
export async function findSuppressed(
  db: Db,
  accountId: string,
  normalisedEmails: string[],
  stream: MessageStream,
): Promise<Set<string>> {
  if (normalisedEmails.length === 0) return new Set();
  const byHash = new Map(normalisedEmails.map((email) => [hashEmail(email), email]));
  const rows = await db
    .selectDistinct({ emailHash: suppressions.emailHash })
    .from(suppressions)
    .where(
      and(
        eq(suppressions.accountId, accountId),
        inArray(suppressions.emailHash, [...byHash.keys()]),
        inArray(suppressions.reason, reasonsCovering(stream)),
      ),
    );
  return new Set(rows.map((row) => byHash.get(row.emailHash) as string));
}

/** The value suppressionRowsOverSql matches: the addresses' distinct `hashEmail`s as a text[] literal. */
export function suppressionProbeHashes(normalisedEmails: string[]): string {
  return `{${[...new Set(normalisedEmails.map(hashEmail))].join(',')}}`; // hex: no quoting needed
}

/**
 * The account's suppressions of some addresses as one SQL expression (a text[] of `<hashEmail>:<reason>`, one per
 * row), for a hot path that folds the probe into a statement of its own: `hashes` is an SQL value of
 * `suppressionProbeHashes` (a parameter, so the statement keeps one text); `suppressionsByAddress` reads it. The
 * account is a value, or an SQL expression of the carrying statement (the API key's account).
 */
export function suppressionRowsOverSql(accountId: string | SQL, hashes: SQL): SQL {
  return sql`(select coalesce(array_agg(${suppressions.emailHash} || ':' || ${suppressions.reason}), '{}'::text[])
                from ${suppressions}
               where ${suppressions.accountId} = ${accountId}
                 and ${suppressions.emailHash} = any(${hashes}::text[]))`;
}

/**
 * Reads `suppressionRowsOverSql`: for each given address with a suppression covering its stream, the strongest such
 * reason. `streamOf` names the stream of each address's message.
 */
export function suppressionsByAddress(
  rows: readonly string[],
  emails: readonly string[],
  streamOf: (index: number) => MessageStream,
): Array<SuppressionReason | null> {
  if (rows.length === 0) return emails.map(() => null);
  const byHash = new Map<string, SuppressionReason[]>();
  for (const row of rows) {
    const [hash, reason] = row.split(':') as [string, SuppressionReason];
    const known = byHash.get(hash);
    if (known) known.push(reason);
    else byHash.set(hash, [reason]);
  }
  return emails.map((email, index) => {
    const reasons = byHash.get(hashEmail(email));
    if (!reasons) return null;
    const stream = streamOf(index);
    return strongestSuppressionReason(reasons.filter((reason) => suppressionCovers(reason, stream)));
  });
}

export type { SuppressionReason };

/**
 * How many addresses the account suppresses (`total`, each address once) and how many carry each reason (an address
 * unsubscribed and later bounced counts under both). The list holds hashes only, never addresses.
 */
export async function suppressionSummary(db: Db, accountId: string): Promise<SuppressionSummary> {
  const rows = await db
    .select({ reason: suppressions.reason, count: sql<number>`count(*)::int` })
    .from(suppressions)
    .where(eq(suppressions.accountId, accountId))
    .groupBy(suppressions.reason);
  const [distinct] = await db
    .select({ count: sql<number>`count(distinct ${suppressions.emailHash})::int` })
    .from(suppressions)
    .where(eq(suppressions.accountId, accountId));
  const byReason = Object.fromEntries(SUPPRESSION_REASON_VALUES.map((reason) => [reason, 0])) as Record<
    SuppressionReason,
    number
  >;
  for (const row of rows) byReason[row.reason] = Number(row.count);
  return { total: Number(distinct?.count ?? 0), byReason };
}

/**
 * Adds addresses the sender typed or pasted (reason "manual", every stream): normalised like every address, invalid
 * lines reported back, addresses already entered by hand counted apart (an address suppressed for another reason
 * gets the manual entry beside it: an unsubscribe covers marketing only). Contacts with these addresses stay in the
 * account but are never mailed; imports and the new-contact form skip them.
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
    throw new AppError('validation_failed', ERROR_TEXT.contacts.noEmails);
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

/** Whether one (normalised) address is on the account's suppression list, why, and which streams that covers. */
export async function lookupSuppression(db: Db, accountId: string, email: string): Promise<SuppressionLookup> {
  const rows = await db
    .select({ reason: suppressions.reason, createdAt: suppressions.createdAt })
    .from(suppressions)
    .where(and(eq(suppressions.accountId, accountId), eq(suppressions.emailHash, hashEmail(email))));
  const reasons = SUPPRESSION_REASON_PRECEDENCE.filter((reason) => rows.some((row) => row.reason === reason));
  const strongest = rows.find((row) => row.reason === reasons[0]);
  return {
    email,
    suppressed: rows.length > 0,
    reason: strongest?.reason ?? null,
    reasons,
    streams: MESSAGE_STREAMS.filter((stream) => reasons.some((reason) => suppressionCovers(reason, stream))),
    createdAt: strongest ? strongest.createdAt.toISOString() : null,
  };
}

/**
 * Takes the sender's own (manual) entry of an address off the list. Entries the recipient caused (erasure,
 * unsubscribe, bounce, complaint) stay — beside a manual entry too: only the recipient can undo them, by subscribing
 * again through a form (double opt-in) or, for an unsubscribe, from the unsubscribe page of a message they received
 * (`liftUnsubscribedSuppression`). 404 when the address is not suppressed, 409 when it has no manual entry.
 */
export async function removeManualSuppression(db: Db, accountId: string, email: string): Promise<void> {
  const found = await lookupSuppression(db, accountId, email);
  if (!found.suppressed) throw new AppError('not_found', ERROR_TEXT.contacts.notSuppressed);
  if (!found.reasons.includes('manual')) {
    throw new AppError(
      'suppression_not_manual',
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
