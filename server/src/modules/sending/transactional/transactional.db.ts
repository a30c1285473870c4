import { bigint, boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../../accounts/accounts.db';
import { messages } from '../messages.db';

export const TRANSACTIONAL_CATEGORIES = ['transactional', 'marketing'] as const;
export type TransactionalCategory = (typeof TRANSACTIONAL_CATEGORIES)[number];

/**
 * The content of one transactional message (public API `POST /api/v1/messages`), beside its `messages` row
 * (same id): the message row carries the recipient, token, status and SMTP outcome like any campaign message;
 * this row carries what differs per message — sender, category, tracking switches, and the subject and bodies
 * already rendered with the caller's merge data (Liquid errors are answered 400 at request time). The engine
 * reads it when it claims the batch, then adds tracking, builds the MIME, signs and delivers (ADR 0018).
 * `cost_millis` is what the message was charged: refunded when its delivery fails.
 */
export const transactionalMessages = pgTable('transactional_messages', {
  messageId: bigint('message_id', { mode: 'number' })
    .primaryKey()
    .references(() => messages.id, { onDelete: 'cascade' }),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  fromEmail: text('from_email').notNull(),
  fromName: text('from_name'),
  replyTo: text('reply_to'),
  toName: text('to_name'),
  category: text('category', { enum: TRANSACTIONAL_CATEGORIES }).notNull(),
  trackOpens: boolean('track_opens').notNull(),
  trackClicks: boolean('track_clicks').notNull(),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  templateId: uuid('template_id'),
  tags: text('tags').array(),
  costMillis: integer('cost_millis').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type TransactionalMessageRow = typeof transactionalMessages.$inferSelect;
