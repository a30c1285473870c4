import { customType, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * Files an account uploaded through the public API (`POST /api/v1/files`) to attach to many messages by `fileId`
 * (ADR 0033). The bytes live here, in the database, like a message's own files: one store to back up and to erase.
 * One row per distinct content of an account (sha256): the same bytes uploaded again are the same file.
 * Kept until `expires_at` (30 days after the latest upload of those bytes) and then swept, except while a queued
 * message still refers to it (transactional_attachments.file_id): the engine reads the bytes when it builds it.
 */
export const messageFiles = pgTable(
  'message_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('message_files_account_sha_idx').on(t.accountId, t.sha256),
    index('message_files_expires_idx').on(t.expiresAt),
  ],
);

export type MessageFileRow = typeof messageFiles.$inferSelect;
