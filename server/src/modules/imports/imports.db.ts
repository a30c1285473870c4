import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { lists } from '../lists/lists.db';

export interface ImportFileInfo {
  delimiter: string;
  encoding: 'utf-8' | 'windows-1252';
  hasBom: boolean;
  columns: string[];
  sizeBytes: number;
}

/**
 * One CSV import (contact_upload_progress): uploaded → queued → running → done | failed. Counters are updated
 * per batch by the job so the progress bar survives a reload.
 */
export const contactImports = pgTable(
  'contact_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    listId: uuid('list_id').references(() => lists.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['uploaded', 'queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('uploaded'),
    fileName: text('file_name'),
    filePath: text('file_path').notNull(),
    fileInfo: jsonb('file_info').$type<ImportFileInfo>().notNull(),
    totalRows: integer('total_rows').notNull().default(0),
    processedRows: integer('processed_rows').notNull().default(0),
    inserted: integer('inserted').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    skippedInvalid: integer('skipped_invalid').notNull().default(0),
    skippedDuplicate: integer('skipped_duplicate').notNull().default(0),
    skippedSuppressed: integer('skipped_suppressed').notNull().default(0),
    options: jsonb('options').$type<Record<string, unknown>>(),
    error: text('error'),
    rejectedPath: text('rejected_path'),
    rejectedCount: integer('rejected_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_imports_account_created_idx').on(t.accountId, t.createdAt)],
);
