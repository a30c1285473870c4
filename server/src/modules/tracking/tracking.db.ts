import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { campaigns } from '../campaigns/campaigns.db';

/** One tracked link of a campaign: the only URL its click redirect may go to. Inserted once per campaign and URL. */
export const campaignLinks = pgTable(
  'campaign_links',
  {
    id: serial('id').primaryKey(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('campaign_links_campaign_url_uq').on(t.campaignId, t.url)],
);

export const MESSAGE_EVENT_KINDS = ['open', 'click', 'unsubscribe', 'bounce', 'complaint'] as const;
export type MessageEventKind = (typeof MESSAGE_EVENT_KINDS)[number];
export const BOUNCE_KINDS = ['hard', 'soft', 'policy'] as const;
export type BounceKind = (typeof BOUNCE_KINDS)[number];

/**
 * What happened to a sent message after delivery. Append-only; written in batches by the public endpoints
 * (opens, clicks) and one at a time by unsubscribes, the bounce receiver and provider webhooks.
 * `machine` marks pre-fetches (Apple MPP, scanners, HEAD) kept out of human rates. Every inserting statement is folded
 * into the campaign report's rollup by the reports module's trigger (reports/reports.db.ts); rows leave only with
 * their campaign or account, which takes the rollup with them.
 */
export const messageEvents = pgTable(
  'message_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id'),
    kind: text('kind', { enum: MESSAGE_EVENT_KINDS }).notNull(),
    machine: boolean('machine').notNull().default(false),
    linkId: integer('link_id'),
    bounceKind: text('bounce_kind', { enum: BOUNCE_KINDS }),
    /** Enhanced status code (bounces), feedback type (complaints), or the source (one-click, page, dsn, ses). */
    detail: text('detail'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('message_events_campaign_kind_idx').on(t.campaignId, t.kind, t.createdAt),
    index('message_events_message_idx').on(t.messageId),
    index('message_events_contact_idx').on(t.contactId, t.createdAt),
    // Segments' engagement conditions ("abriu/clicou em alguma das últimas N campanhas"): the human events of
    // given campaigns, answered by an index-only scan (contact ids) — ADR 0016, docs/benchmarks.md "Segments".
    index('message_events_engagement_idx')
      .on(t.campaignId, t.kind, t.contactId)
      .where(sql`not ${t.machine} and ${t.contactId} is not null`),
  ],
);

export type MessageEventRow = typeof messageEvents.$inferSelect;

/**
 * One row per contact with at least one human (non-machine) open, and when the first was: derived from
 * message_events by a statement-level trigger on its inserts (migration 0034), so every writer of an open keeps it
 * true. Segments' "nunca abriu" reads this set — the size of the account's openers — instead of every open event
 * the account ever had (ADR 0016, docs/benchmarks.md "Segments"). A contact's deletion takes its row (migration
 * 0059); a later open of an erased contact's message may write it again (its events stay), so a count never reads
 * these rows without contacts — segment_engagement, which holds existing contacts only, answers "nunca abriu"
 * alone.
 */
export const contactFirstOpens = pgTable(
  'contact_first_opens',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id').notNull(),
    firstOpenedAt: timestamp('first_opened_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.contactId] })],
);
