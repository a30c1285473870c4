import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { messageFiles } from '../message-files/message-files.db';
import { messages } from '../sending/messages.db';

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
export const transactionalMessages = pgTable(
  'transactional_messages',
  {
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
    /** Who this row is for: the `to` address, or a cc/bcc copy of the message `copyOf` (its own messages row). */
    recipientKind: text('recipient_kind', { enum: ['to', 'cc', 'bcc'] })
      .notNull()
      .default('to'),
    copyOf: bigint('copy_of', { mode: 'number' }).references(() => messages.id, { onDelete: 'cascade' }),
    /** For copies: the `to` mailbox shown in the To header ({ email, name }); null for the `to` row itself. */
    headerTo: jsonb('header_to').$type<{ email: string; name: string | null }>(),
    /** The Cc header's mailboxes (every copy shows them). */
    cc: jsonb('cc').$type<{ email: string; name: string | null }[]>(),
    /** The caller's allow-listed headers, in order: [name, value][]. */
    headers: jsonb('headers').$type<[string, string][]>(),
    metadata: jsonb('metadata').$type<Record<string, string>>(),
    /**
     * `sendAt` of a scheduled send: its engine batch is due then (the lanes claim it no earlier), the lookup shows it
     * `scheduled` until then, and it can be cancelled (refunded) while its batch waits. Null: sent at once.
     */
    sendAt: timestamp('send_at', { withTimezone: true }),
    /** When a scheduled send was cancelled (`POST /messages/{id}/cancel`), for the lookup's timeline; null otherwise. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * A test key's scheduled message (no engine batch, ADR 0035): when its `message.delivered` (test) webhook event
     * was written, at sendAt, by the sandbox job; null until then, and for every other message.
     */
    sandboxNotifiedAt: timestamp('sandbox_notified_at', { withTimezone: true }),
    /** Files stored under the `to` row (copies read them from `copyOf`). */
    attachmentCount: integer('attachment_count').notNull().default(0),
  },
  (t) => [
    // Scheduled sends by their time: the sandbox job reads the last day's due ones from here.
    index('transactional_messages_send_at_idx').on(t.sendAt).where(sql`${t.sendAt} is not null`),
  ],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * The files of a transactional message, in order, under its `to` row (its copies share them): sent base64 in the
 * request, stored as bytes, read by the engine when it builds the message (ADR 0033).
 */
export const transactionalAttachments = pgTable(
  'transactional_attachments',
  {
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    contentId: text('content_id'),
    size: integer('size').notNull(),
    /** The bytes sent in the request; null for an uploaded file (`file_id`), read from there when sending. */
    content: bytea('content'),
    /**
     * An uploaded file (message-files) the message refers to instead of carrying the bytes: one upload, many
     * messages. Set null if the file is erased before the message goes: the engine then fails and refunds it.
     */
    fileId: uuid('file_id').references(() => messageFiles.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.position] }),
    // The file sweep and an erased file's `set null` find the messages that refer to a file.
    index('transactional_attachments_file_idx').on(t.fileId).where(sql`file_id is not null`),
  ],
);

export type TransactionalMessageRow = typeof transactionalMessages.$inferSelect;
