import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { campaigns } from '../campaigns/campaigns.db';

/**
 * A message's life (keila's message state machine): queued → sent | failed | skipped, or queued again with a later
 * next_attempt_at after a 4xx. While a worker delivers it, the message stays queued and its batch (below) is in
 * status sending: the lease lives on the batch, so the message row is written once per attempt.
 */
export const MESSAGE_STATUSES = ['queued', 'sent', 'failed', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * One row per recipient of a campaign, snapshotted when the send starts. The row is the source of truth for
 * what was delivered: a worker claims the batch it belongs to, delivers it and records the SMTP reply on it
 * (claimed_by = the worker that delivered it). `token` is the message's opaque random id (≥ 150 random bits,
 * 40 hex chars) used by the unsubscribe URL, the "ver no navegador" link, tracking and the VERP return path.
 *
 * Why only four indexes, none on status: the outcome UPDATE changes no indexed column, so PostgreSQL writes it
 * as a heap-only tuple (HOT) on the same page — no index entry at all. The table is created with fillfactor 50
 * (migration 0015) so that page has room for the new version. With status indexed, every message cost three
 * heap tuples and ~14 index insertions (snapshot, claim, outcome); now two heap tuples and four insertions.
 */
export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id'),
    email: text('email').notNull(),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    claimedBy: text('claimed_by'),
    smtpCode: integer('smtp_code'),
    enhancedCode: text('enhanced_code'),
    response: text('response'),
    /** A 5.7.x rejection: policy/authentication, not a bad mailbox (standards.md "Bounces"). */
    policy: boolean('policy').notNull().default(false),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    token: text('token').notNull(),
    /**
     * A/B test (ADR 0020): the variant this recipient gets (0 = A, the campaign itself), written once in the
     * snapshot's transaction for the test share, and once by the decision for the held rest (null until then).
     * Null for every message of a normal campaign. Not indexed, so writing it stays a heap-only update.
     */
    variant: smallint('variant'),
    /**
     * Why a skipped message was not delivered (shared SkipReason: the eligibility rule's code at claim time, or the
     * cancellation); null for every other status. Not indexed, so writing it stays a heap-only update.
     */
    skipReason: text('skip_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('messages_token_idx').on(t.token),
    // A campaign's messages in id order: carving a batch reads the next ids from here, and a batch's messages
    // are one range of it (the primary key alone made the planner combine bitmaps over the whole campaign).
    index('messages_campaign_id_idx').on(t.campaignId, t.id),
    // One message per contact per campaign (the snapshot's dedup, enforced).
    uniqueIndex('messages_campaign_contact_idx').on(t.campaignId, t.contactId),
    // The public API's message list (message-lookup.ts) filtered by recipient, newest first, over a transactional
    // stream's whole past: only rows without a contact (the streams'; a campaign's snapshot never writes here).
    index('messages_stream_recipient_idx').on(t.campaignId, t.email, t.id).where(sql`contact_id is null`),
    // A test key's messages (ADR 0035): a few among a live stream's millions.
    index('messages_sandbox_idx').on(t.campaignId, t.id).where(sql`skip_reason = 'sandbox'`),
    // The same list newest first, as a live key sees it, with or without a date window: the stream apart from the
    // campaigns' messages (walking messages_pkey read every campaign message sent since: ~1 s past 2M), with the
    // date in the index so the messages newer than a window are skipped index-only (the heap is read for the page's
    // rows only). It replaced a (campaign_id, created_at) index, so a message writes as many index entries as before.
    index('messages_stream_walk_idx')
      .on(t.campaignId, t.id, t.createdAt)
      .where(sql`contact_id is null and skip_reason is distinct from 'sandbox'`),
  ],
);

export const MESSAGE_BATCH_STATUSES = ['queued', 'sending', 'done'] as const;

/**
 * The unit of work of the sending engine: a range of one campaign's message ids (ids of other campaigns inside
 * the range are not its messages). A worker carves a new batch from the campaign's cursor
 * (campaign_sends.next_message_id) or takes a queued one (retries, expired leases) with FOR UPDATE SKIP LOCKED,
 * holds it (status sending, claimed_by/claimed_at = its lease) while it delivers, and records the outcomes: the
 * batch is then done, or queued again until its next retry is due. Small and short-lived, unlike messages.
 */
export const messageBatches = pgTable(
  'message_batches',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    firstMessageId: bigint('first_message_id', { mode: 'number' }).notNull(),
    lastMessageId: bigint('last_message_id', { mode: 'number' }).notNull(),
    status: text('status', { enum: MESSAGE_BATCH_STATUSES }).notNull().default('queued'),
    /** A queued batch is claimed once its earliest retry is due. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** Messages of the batch marked sent, and when its outcomes were last recorded: the live rate. */
    sentCount: integer('sent_count').notNull().default(0),
    recordedAt: timestamp('recorded_at', { withTimezone: true }),
  },
  (t) => [
    // The live rate: the batches a campaign recorded in the last minute.
    index('message_batches_recorded_idx').on(t.campaignId, t.recordedAt),
    // The claim of a queued batch (retries, expired leases) and the finish check.
    index('message_batches_queued_idx').on(t.campaignId, t.dueAt, t.id).where(sql`status = 'queued'`),
    // The lease sweep and the in-flight gauge: only the batches being delivered.
    index('message_batches_in_flight_idx').on(t.claimedAt).where(sql`status = 'sending'`),
    // A stream's newest batch, which a transactional commit may extend (queueBatchesCtes): one index probe whatever
    // the stream's history. Batches are never deleted, so without it every commit read all of its stream's batches
    // (38 ms at 200,000). first_message_id, not last: it never changes, so extending a batch stays a HOT update.
    index('message_batches_stream_newest_idx').on(t.campaignId, t.firstMessageId),
  ],
);

export type MessageRow = typeof messages.$inferSelect;
export type MessageBatchRow = typeof messageBatches.$inferSelect;
