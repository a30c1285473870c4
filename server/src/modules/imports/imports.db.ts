import { customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
 * per batch by the job so the progress bar survives a reload. The file itself is in `contact_import_files`.
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
    rejectedCount: integer('rejected_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_imports_account_created_idx').on(t.accountId, t.createdAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The bytes of an import's files, in the database so every process reaches them (the API that received the
 * upload, a worker on another machine): the uploaded CSV (`upload`, deleted once the import ends) and the report
 * of rejected rows (`rejected`). Chunks of about 1 MiB, cut after a line break so no address spans two chunks.
 */
export const contactImportFiles = pgTable(
  'contact_import_files',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => contactImports.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['upload', 'rejected'] }).notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.kind, t.seq] })],
);

/**
 * The batches of an import already written, each recorded in the transaction that wrote it, with what it did:
 * an import run again after its worker died skips them and adds these counts, so its counters come out exact.
 * Deleted when the import ends.
 */
export const contactImportBatches = pgTable(
  'contact_import_batches',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => contactImports.id, { onDelete: 'cascade' }),
    batchNo: integer('batch_no').notNull(),
    inserted: integer('inserted').notNull(),
    updated: integer('updated').notNull(),
    unchanged: integer('unchanged').notNull(),
    /** The batch's suppressed addresses, one per line (for the rejected-rows report). */
    suppressed: text('suppressed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.batchNo] })],
);
