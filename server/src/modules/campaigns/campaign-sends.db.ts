import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { campaigns } from './campaigns.db';

/**
 * The state of one campaign send, beside the campaign row (the campaign lifecycle's, ADR 0036): when it started and finished, why it is
 * paused, the consecutive transport errors (auto-pause), and when the reservation was settled (exactly once).
 */
export const campaignSends = pgTable(
  'campaign_sends',
  {
    campaignId: uuid('campaign_id')
      .primaryKey()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    recipients: integer('recipients').notNull(),
    /** The snapshot's message ids run up to last_message_id; batches are carved from next_message_id on. */
    nextMessageId: bigint('next_message_id', { mode: 'number' }).notNull().default(0),
    lastMessageId: bigint('last_message_id', { mode: 'number' }).notNull().default(0),
    reservedMillis: bigint('reserved_millis', { mode: 'number' }).notNull().default(0),
    pausedReason: text('paused_reason'),
    consecutiveErrors: integer('consecutive_errors').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    chargedMillis: bigint('charged_millis', { mode: 'number' }),
    /**
     * A/B test (ADR 0020). The test share is the first message ids of the snapshot (up to last_message_id while the
     * test runs); the held rest runs up to ab_held_last_message_id. At ab_decide_at a worker picks the winner
     * (compare-and-set on ab_decided_at), writes it on the held rows and moves last_message_id there, so the
     * cursor carves them. All null for a normal campaign.
     */
    abDecideAt: timestamp('ab_decide_at', { withTimezone: true }),
    /** The last message id of the test share (the variants' comparison counts only ids up to it). */
    abTestLastMessageId: bigint('ab_test_last_message_id', { mode: 'number' }),
    abHeldLastMessageId: bigint('ab_held_last_message_id', { mode: 'number' }),
    abDecidedAt: timestamp('ab_decided_at', { withTimezone: true }),
    abWinner: smallint('ab_winner'),
    /** The decision as made: per variant delivered/opens/clicks at that moment and the pt-BR reason. */
    abDecision: jsonb('ab_decision').$type<AbDecision>(),
  },
  (t) => [
    // Every worker's tick looks for A/B tests due for a decision: only the undecided ones are in this index.
    index('campaign_sends_ab_pending_idx').on(t.abDecideAt).where(sql`ab_decided_at is null`),
  ],
);

export interface AbDecision {
  reason: string;
  criterion: 'opens' | 'clicks';
  variants: Array<{ index: number; delivered: number; uniqueOpens: number; uniqueClicks: number }>;
}

export type CampaignSendRow = typeof campaignSends.$inferSelect;
