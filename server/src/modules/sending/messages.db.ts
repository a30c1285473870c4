import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { campaigns } from '../campaigns/campaigns.db';

/** A message's life (keila's message state machine): queued → sending → sent | failed | skipped (or back to queued on a 4xx). */
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * One row per recipient of a campaign, snapshotted when the send starts. The row is the source of truth for
 * what was delivered: a worker claims it (status sending, claimed_by/claimed_at = its lease), delivers it and
 * records the SMTP reply on it. `token` is the message's opaque random id (≥ 150 random bits, 40 hex chars) used
 * by the unsubscribe URL, the "ver no navegador" link, tracking and the VERP return path.
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
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    smtpCode: integer('smtp_code'),
    enhancedCode: text('enhanced_code'),
    response: text('response'),
    /** A 5.7.x rejection: policy/authentication, not a bad mailbox (standards.md "Bounces"). */
    policy: boolean('policy').notNull().default(false),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    token: text('token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Per-status counts of a campaign (progress, finish check).
    index('messages_claim_idx').on(t.campaignId, t.status, t.nextAttemptAt, t.id),
    // The claim: queued messages of a campaign in id order, so `order by id limit n` reads n rows, not the
    // whole queue (next_attempt_at is checked as a filter; retries are few).
    index('messages_queued_idx').on(t.campaignId, t.id).where(sql`status = 'queued'`),
    // The lease sweep: only the few rows in flight.
    index('messages_in_flight_idx').on(t.claimedAt).where(sql`status = 'sending'`),
    uniqueIndex('messages_token_idx').on(t.token),
    // One message per contact per campaign (the snapshot's dedup, enforced).
    uniqueIndex('messages_campaign_contact_idx').on(t.campaignId, t.contactId),
  ],
);

/**
 * The engine's state of one campaign send, beside the campaign row: when it started and finished, why it is
 * paused, the consecutive transport errors (auto-pause), and when the reservation was settled (exactly once).
 */
export const campaignSends = pgTable('campaign_sends', {
  campaignId: uuid('campaign_id')
    .primaryKey()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  recipients: integer('recipients').notNull(),
  reservedMillis: bigint('reserved_millis', { mode: 'number' }).notNull().default(0),
  pausedReason: text('paused_reason'),
  consecutiveErrors: integer('consecutive_errors').notNull().default(0),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  settledAt: timestamp('settled_at', { withTimezone: true }),
  chargedMillis: bigint('charged_millis', { mode: 'number' }),
});

export type MessageRow = typeof messages.$inferSelect;
export type CampaignSendRow = typeof campaignSends.$inferSelect;
