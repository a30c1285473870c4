import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';

/** A mailing list (product §4 List): single or double opt-in. */
export const lists = pgTable(
  'lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    optIn: text('opt_in', { enum: ['single', 'double'] })
      .notNull()
      .default('single'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lists_account_created_idx').on(t.accountId, t.createdAt)],
);

export const MEMBERSHIP_STATUSES = ['subscribed', 'unsubscribed', 'pending'] as const;

/** A contact in a list, with its per-list status (pending = double opt-in not yet confirmed). */
export const listMemberships = pgTable(
  'list_memberships',
  {
    // list_id references lists(id) and contact_id references contacts(id), both ON DELETE CASCADE, enforced by
    // statement-level triggers (migration 0016) instead of declared foreign keys: a declared key runs a check
    // query per inserted row and locks the referenced contact row (a heap write and a WAL record for a contact
    // inserted a moment before by the same import) — the three row-level checks were ~40% of a bulk import's
    // database time. The triggers check a whole statement at once, lock only the lists and the contacts that
    // other transactions could delete (FOR KEY SHARE, as a foreign key does), and cascade deletes per statement.
    // Tested in imports/audience-references.test.ts.
    listId: uuid('list_id').notNull(),
    contactId: uuid('contact_id').notNull(),
    status: text('status', { enum: MEMBERSHIP_STATUSES }).notNull().default('subscribed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.contactId] }),
    index('list_memberships_contact_idx').on(t.contactId),
    // A list's subscribed members read without the heap (an index-only scan once vacuum has set the visibility
    // map): what every segment list condition and a campaign's list audience select. status is not in the
    // primary key, so reading the members through it fetched every row (ADR 0016, session 11 amendment).
    index('list_memberships_subscribed_idx').on(t.listId, t.contactId).where(sql`${t.status} = 'subscribed'`),
  ],
);

/**
 * A list's member and subscribed counts as rows of deltas (migration 0058): each statement that writes memberships,
 * or changes whether contacts are subscribed, appends one row per list it changed — the members added or removed,
 * and the subscribed ones (membership subscribed and contact subscribed) — and the lists page sums a list's rows
 * instead of counting its members (1.2 s for a 600k list at 1M contacts). Rows, not a counter on the list: the
 * import's concurrent batches into one list would queue behind each other's lock on it until each commits. A
 * list's rows are folded into one when they pile up (`list-counts.ts`). Written only by the statement-level
 * triggers of that migration, which the lists module owns; no foreign key (the triggers drop a deleted list's rows,
 * as memberships are dropped, migration 0016).
 */
export const listCountDeltas = pgTable(
  'list_count_deltas',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    listId: uuid('list_id').notNull(),
    members: integer('members').notNull(),
    subscribed: integer('subscribed').notNull(),
  },
  (t) => [index('list_count_deltas_list_idx').on(t.listId)],
);
