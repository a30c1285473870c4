import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';

/**
 * Images an account uploaded for its templates. The bytes live in file storage under `storage_key`
 * (local directory or S3-compatible bucket, decision 0007); the row is what the account owns and lists.
 */
export const uploadedFiles = pgTable(
  'uploaded_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull().unique(),
    /** The type sniffed from the bytes, never the one the client declared. */
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    width: integer('width'),
    height: integer('height'),
    /** The client's file name, for the asset manager (optional, display only). */
    name: text('name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('uploaded_files_account_created_idx').on(t.accountId, t.createdAt.desc()),
    // Same bytes uploaded again by the same account → the existing file is returned.
    index('uploaded_files_account_sha_idx').on(t.accountId, t.sha256),
  ],
);

export type UploadedFileRow = typeof uploadedFiles.$inferSelect;
