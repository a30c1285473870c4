import type { ContactDetail, ContactPage, ContactQuery } from '@carteiro/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { afterKeysetCursorSql, cursorTimestampSql, keysetPage } from '../../db/keyset';
import { escapeLike } from '../../db/like';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { accountDirectory } from '../accounts/account-directory';
import { findContactMemberships } from '../lists/list-directory';
import { type ContactRow, toContactView } from './contact-view';
import { CONTACT_STATUSES, contacts } from './contacts.db';

/**
 * One page of an account's contacts, newest first, by keyset ((created_at, id) < cursor) so page N costs the
 * same as page 1 at a million contacts. Search is a prefix match on the e-mail or the lower-cased name (both
 * indexed with text_pattern_ops); filters by status and list.
 */
/**
 * Above this many matches per search index, a search page walks the account newest first (the matches are dense
 * enough to fill a page quickly); below, the page is built from the matches themselves.
 */
export const SEARCH_PROBE_LIMIT = 2000;

/**
 * The ids matching a prefix search, read from the prefix indexes in their own order (`using ~<~`, the
 * text_pattern_ops order, so each part is an index range read that stops at `probeLimit` + 1), or null when
 * either index holds more than `probeLimit` matches. Without this, the planner may walk the whole account newest
 * first looking for 51 rare matches of an old prefix (1.3 s at 1M contacts on PGlite, seen in the bench) — or, the
 * other way round, fetch and sort a million matches of an unselective one.
 */
async function searchMatches(
  db: Db,
  accountId: string,
  search: string,
  prefix: string,
  probeLimit: number,
): Promise<string[] | null> {
  const byName = search.includes('@')
    ? sql``
    : sql`union all
      (select 'n' as part, id from contacts
        where account_id = ${accountId} and lower(name) like ${prefix}
        order by lower(name) using ~<~ limit ${probeLimit + 1})`;
  const rows = await queryRows<{ part: string; id: string }>(
    db,
    sql`(select 'e' as part, id from contacts
          where account_id = ${accountId} and email like ${prefix}
          order by email using ~<~ limit ${probeLimit + 1})
        ${byName}`,
  );
  let email = 0;
  let name = 0;
  for (const row of rows) {
    if (row.part === 'e') email++;
    else name++;
  }
  if (email > probeLimit || name > probeLimit) return null;
  return [...new Set(rows.map((row) => row.id))];
}

export async function findContacts(
  db: Db,
  accountId: string,
  query: ContactQuery = {},
  probeLimit = SEARCH_PROBE_LIMIT,
): Promise<ContactPage> {
  const limit = query.limit ?? 50;
  const conditions = [sql`c.account_id = ${accountId}`];
  if (query.status) {
    // A literal, not a parameter: the planner can then match contacts_account_inactive_idx (partial, status <>
    // 'subscribed') for the rare statuses. The value is one of CONTACT_STATUSES (checked here, not only by zod).
    if (!CONTACT_STATUSES.includes(query.status)) throw new AppError('bad_request', ERROR_TEXT.contacts.invalidStatus);
    conditions.push(sql`c.status = ${sql.raw(`'${query.status}'`)}`);
  }
  if (query.listId) {
    conditions.push(
      sql`exists (select 1 from list_memberships m where m.contact_id = c.id and m.list_id = ${query.listId})`,
    );
  }
  const search = query.search?.trim().toLowerCase();
  if (search) {
    const prefix = `${escapeLike(search)}%`;
    const matches = await searchMatches(db, accountId, search, prefix, probeLimit);
    if (matches === null) {
      conditions.push(
        search.includes('@')
          ? sql`c.email like ${prefix}`
          : sql`(c.email like ${prefix} or lower(c.name) like ${prefix})`,
      );
    } else if (matches.length === 0) {
      return { items: [], nextCursor: null };
    } else {
      conditions.push(sql`c.id = any(${`{${matches.join(',')}}`}::uuid[])`);
    }
  }
  // The order must be exactly the index's (drizzle-kit writes DESC NULLS LAST): `desc` alone means NULLS FIRST
  // and PostgreSQL would sort the whole account instead of reading 51 index entries.
  if (query.cursor) conditions.push(afterKeysetCursorSql(sql`c.created_at`, sql`c.id`, query.cursor));
  const rows = await queryRows<Record<string, unknown> & { id: string; cursor_at: string }>(
    db,
    sql`select c.id, c.email, c.name, c.fields, c.status, c.legal_basis, c.consent_source, c.consent_ip,
          c.consent_at, c.consent_text, c.created_at, c.updated_at,
          ${cursorTimestampSql(sql`c.created_at`)} as cursor_at
        from contacts c
        where ${sql.join(conditions, sql` and `)}
        order by c.created_at desc nulls last, c.id desc nulls last
        limit ${limit + 1}`,
  );
  const page = keysetPage(rows, limit);
  return { items: page.rows.map((row) => toContactView(fromRaw(row))), nextCursor: page.nextCursor };
}

/** A raw snake_case row as the Drizzle row type. */
export function fromRaw(row: Record<string, unknown>): ContactRow {
  const fields = typeof row.fields === 'string' ? JSON.parse(row.fields) : row.fields;
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    email: row.email as string,
    name: (row.name as string | null) ?? null,
    fields: (fields as Record<string, string>) ?? {},
    status: row.status as ContactRow['status'],
    legalBasis: (row.legal_basis as ContactRow['legalBasis']) ?? null,
    consentSource: (row.consent_source as string | null) ?? null,
    consentIp: (row.consent_ip as string | null) ?? null,
    consentAt: row.consent_at ? new Date(row.consent_at as string) : null,
    consentText: (row.consent_text as string | null) ?? null,
    createdAt: new Date(row.created_at as string),
    updatedAt: new Date(row.updated_at as string),
  };
}

/** One contact of the account with its list memberships; 404 when it belongs to another account. */
export async function findContact(db: Db, accountId: string, contactId: string): Promise<ContactDetail> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)));
  if (!row) throw notFound('contact');
  const memberships = await findContactMemberships(db, contactId);
  return {
    ...toContactView(row),
    lists: memberships.map((m) => ({ listId: m.listId, status: m.status, createdAt: m.createdAt.toISOString() })),
  };
}

/**
 * Every account's contact with this (normalised) address, with the account's name: what a person's LGPD request
 * (public privacy page) covers. Across accounts by design; the person proved they hold the address.
 */
export async function findContactsHoldingEmail(
  db: Db,
  email: string,
): Promise<Array<{ id: string; accountId: string; accountName: string }>> {
  return db
    .select({ id: contacts.id, accountId: contacts.accountId, accountName: accountDirectory.name })
    .from(contacts)
    .innerJoin(accountDirectory, eq(accountDirectory.id, contacts.accountId))
    .where(eq(contacts.email, email));
}
