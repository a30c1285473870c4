import { SUPPRESSION_REASON_VALUES } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';

export const CONTACT_STATUSES = ['subscribed', 'unsubscribed', 'bounced', 'complained'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/**
 * A contact of an account (product §4 Contact). `email` is normalised (shared normaliseEmail) and unique per
 * account. Consent evidence is kept on the row (LGPD: the sender must be able to prove consent).
 */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // References accounts(id) ON DELETE CASCADE, enforced by statement-level triggers (migration 0016), not a
    // declared foreign key: the row-level check locked the account row once per inserted contact, a tenth of a
    // bulk import's database time. See list_memberships below.
    accountId: uuid('account_id').notNull(),
    email: text('email').notNull(),
    name: text('name'),
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    status: text('status', { enum: CONTACT_STATUSES }).notNull().default('subscribed'),
    legalBasis: text('legal_basis', { enum: ['consent', 'legitimate_interest'] }),
    consentSource: text('consent_source'),
    consentIp: text('consent_ip'),
    consentAt: timestamp('consent_at', { withTimezone: true }),
    consentText: text('consent_text'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Unique per account and, with text_pattern_ops, also the prefix-search index (LIKE 'abc%' in any
    // collation): one index instead of two on the import's hot path. ON CONFLICT (account_id, email) infers it.
    uniqueIndex('contacts_account_email_uq').using('btree', t.accountId, sql`${t.email} text_pattern_ops`),
    // Keyset pagination, newest first: (created_at, id) < (cursor).
    index('contacts_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // Prefix search on lower(name) (text_pattern_ops so LIKE 'abc%' uses the index in any collation).
    index('contacts_account_name_prefix_idx').using('btree', t.accountId, sql`lower(${t.name}) text_pattern_ops`),
    // Status filter pages for the rare statuses only (unsubscribed, bounced, complained), in keyset order. Imports
    // and forms write 'subscribed', which this partial index leaves out: no index write per imported row (a full
    // (account_id, status) index was one more write on the import's hot path, and useless for 'subscribed',
    // which is most of an account — that filter walks contacts_account_created_idx).
    index('contacts_account_inactive_idx')
      .on(t.accountId, t.status, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} <> 'subscribed'`),
  ],
);

/**
 * Addresses an account does not mail, and why: unsubscribes, bounces, complaints, erased contacts (LGPD), the
 * sender's manual entries. Only the sha256 hex of the normalised address is kept, so an erased person leaves no
 * readable trace. One row per address AND reason: a reason covers some message streams (shared
 * SUPPRESSION_SCOPE: an unsubscribe only marketing, the others every stream), and an address unsubscribed and
 * later bounced keeps both rows — lifting the unsubscribe (a new consent) leaves the bounce in force.
 */
export const suppressions = pgTable(
  'suppressions',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    emailHash: text('email_hash').notNull(),
    reason: text('reason', { enum: SUPPRESSION_REASON_VALUES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // (account, hash) first: every probe (claim, send, import, form) is by account and address, reading its reasons.
  (t) => [primaryKey({ columns: [t.accountId, t.emailHash, t.reason] })],
);

/**
 * How many contacts an account has, as delta rows (the pattern of lists' list_count_deltas, ADR 0041): appended per
 * statement by the triggers on contacts (migration 0065: insert, delete, a change of account), summed and folded by
 * contact-counts.ts. A segment "outside a set" ("nunca abriu", "não está em VIP") is this less the set, where it
 * counted every contact of the account (ADR 0042 amendment, session 23).
 */
export const contactCountDeltas = pgTable(
  'contact_count_deltas',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    contacts: integer('contacts').notNull(),
  },
  (t) => [index('contact_count_deltas_account_idx').on(t.accountId)],
);

/**
 * The custom field keys of an account's contacts, with how many contacts carry each (`contacts`, 0 once the last
 * one lost it): what the segment editor and the templates offer, and whether a segment's field exists, read as
 * rows instead of every contact's `fields` (1 s at 1M contacts, ~10 s at 10M). Written only by the statement-level
 * triggers on contacts that also keep contact_field_values (migration 0057): per statement, the keys of the rows
 * inserted, deleted, or whose fields changed, added up per key.
 */
export const contactFieldKeys = pgTable(
  'contact_field_keys',
  {
    accountId: uuid('account_id').notNull(),
    key: text('key').notNull(),
    contacts: integer('contacts').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

/**
 * The custom fields of each contact that read as a number or a date, typed (ADR 0039): one row per contact and
 * field whose text is a number (`num`, comma or dot decimals) or a date (`day`, AAAA-MM-DD, from AAAA-MM-DD[…] or
 * DD/MM/AAAA) — the very parse the segment conditions applied to every contact on every count, done once per
 * write. A segment's number or date condition reads the matching contacts from these indexes instead of parsing
 * the field of each of the account's contacts. Written ONLY by statement-level triggers on contacts (migration
 * 0050: insert, update of fields, delete), so every write path — import batches, the API, the web edit, erasure,
 * account deletion — keeps it; nothing in TypeScript writes it.
 */
export const contactFieldValues = pgTable(
  'contact_field_values',
  {
    contactId: uuid('contact_id').notNull(),
    field: text('field').notNull(),
    accountId: uuid('account_id').notNull(),
    num: numeric('num'),
    day: text('day'),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.field] }),
    // A number or date condition is a range of this index (index-only): a number `num <op> v`; a date `num is
    // null` (a date is never a number, and nulls sort last) then `day <op> v`.
    index('contact_field_values_lookup_idx').on(t.accountId, t.field, t.num, t.day, t.contactId),
    // "Aniversário este mês": the dates by month, one key (index-only). A second index on the date rows only:
    // month-first order would cost the date ranges above a range per month, which PostgreSQL 15 does not scan
    // in parallel (ADR 0039, amendment 1).
    index('contact_field_values_month_idx')
      .on(t.accountId, t.field, sql`substr(${t.day}, 6, 2)`, t.day, t.contactId)
      .where(sql`${t.day} is not null`),
  ],
);
