import { type MessageStream, SKIP_REASON_LABELS, SKIP_REASONS } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import { suppressedForStreamSql } from './suppression';

/**
 * The one rule that decides whether an address may receive a message of a stream, given as SQL so every path folds
 * it into its own statement: the campaign snapshot and the cost preview (`audienceQuery`), the engine's claim of a
 * campaign batch, the transactional claim and the automations' exit check. The snapshot keeps the eligible
 * recipients; the claim asks the same question again and skips, with the reason code, those that stopped being
 * eligible since — so what the preview counted is what is delivered, unless the recipient changed their mind.
 *
 * The checks, in the order a reason is reported (shared/src/skip-reasons.ts) — the person's own state first, as it
 * says the most (an unsubscribe also suppresses the address, an erasure also deletes the contact):
 * 1. `contact_deleted` — the message names a contact that no longer exists.
 * 2. `contact_<status>` — the contact is unsubscribed, bounced or complained.
 * 3. `suppressed` — the address is on the account's suppression list with a reason that covers the message's stream
 *    (suppression.ts suppressedForStreamSql: an unsubscribe covers marketing only; bounces, complaints, erasure and
 *    the sender's manual entries cover every stream).
 * 4. `left_list` — the audience names lists and the contact is subscribed to none of them: when the lists are the
 *    audience's only source, being off them is enough; when segments or a follow-up also feed it, only a withdrawal
 *    counts (an unsubscribed membership of one of the lists), since the contact may be there through the segment.
 * Which lists, segments or earlier campaign an audience is made of is the audience's business (`audienceQuery`),
 * decided once by the snapshot; this rule is about the person.
 */
export interface EligibilityTarget {
  /** The account (a uuid expression). */
  accountId: SQL;
  /** The normalised address (as stored on contacts and messages). */
  email: SQL;
  /**
   * Alias of the contacts row joined for the recipient (a left join: its `id` is null when the contact was deleted);
   * null for an address that names no contact (API sends), which only the suppression check applies to.
   */
  contact: string | null;
  /** The message's stream: a constant, or a text expression when one statement claims messages of several. */
  stream: MessageStream | SQL;
  /**
   * The lists of the audience (ids, or a uuid[] expression when one statement checks several audiences; an empty
   * array means no list); `only` when they are its only source (no segment, no follow-up).
   */
  lists?: { ids: readonly string[] | SQL; only: boolean } | null;
}

interface Check {
  /** Holds when the recipient passes the check. */
  ok: SQL;
  /** The reason code (a text expression) when it does not. */
  reason: SQL;
}

function checks(target: EligibilityTarget): Check[] {
  const list: Check[] = [];
  const c = target.contact ? sql.raw(target.contact) : null;
  if (c) {
    list.push({ ok: sql`${c}.id is not null`, reason: sql`'contact_deleted'` });
    list.push({ ok: sql`${c}.status = 'subscribed'`, reason: sql`'contact_' || ${c}.status` });
  }
  list.push({
    ok: sql`not ${suppressedForStreamSql(target.accountId, target.email, target.stream)}`,
    reason: sql`'suppressed'`,
  });
  const lists = target.lists;
  if (c && lists && (!Array.isArray(lists.ids) || lists.ids.length > 0)) {
    const ids = Array.isArray(lists.ids) ? sql`${`{${lists.ids.join(',')}}`}::uuid[]` : (lists.ids as SQL);
    const member = (status: string) =>
      sql`exists (select 1 from list_memberships lm where lm.contact_id = ${c}.id and lm.status = ${status}
                   and lm.list_id = any(${ids}))`;
    const onLists = lists.only ? member('subscribed') : sql`(${member('subscribed')} or not ${member('unsubscribed')})`;
    list.push({
      ok: Array.isArray(lists.ids) ? onLists : sql`(cardinality(${ids}) = 0 or ${onLists})`,
      reason: sql`'left_list'`,
    });
  }
  return list;
}

/** A boolean expression: true when the recipient may receive the message (the snapshot's and the preview's filter). */
export function isEligibleSql(target: EligibilityTarget): SQL {
  return sql.join(
    checks(target).map((check) => sql`(${check.ok})`),
    sql` and `,
  );
}

/** A text expression: null when the recipient may receive the message, else the first failing reason code. */
export function ineligibilityReasonSql(target: EligibilityTarget): SQL {
  return sql`(case ${sql.join(
    checks(target).map((check) => sql`when (${check.ok}) is not true then ${check.reason}`),
    sql` `,
  )} end)`;
}

/** The pt-BR label (SKIP_REASON_LABELS) of a reason code expression, for statements that store the label itself. */
export function reasonLabelSql(reason: SQL): SQL {
  return sql`(case ${reason} ${sql.join(
    SKIP_REASONS.map((code) => sql`when ${code} then ${SKIP_REASON_LABELS[code]}`),
    sql` `,
  )} end)`;
}
