import type { Readable } from 'node:stream';
import type { ImportProgress, ImportStartInput, ImportUpload } from '@carteiro/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { findListSummaries } from '../lists/list-directory';
import { assertMayAskConsent } from '../subscriptions/add-contacts-to-lists';
import { deleteStaleUploads, readImportFile, storeUpload } from './import-file-store';
import { contactImportFiles, contactImports } from './imports.db';
import { type CsvInspection, inspectCsv } from './inspect-csv';

export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;

/**
 * Stores an uploaded CSV in the database (import-file-store.ts: streamed in chunks, never held whole in memory)
 * while inspecting it, and records an import in status `uploaded`. An empty file, one without an e-mail column or
 * one past 200 MB is refused with a pt-BR error and nothing is kept. Until the upload is complete the import
 * reads as failed ("o envio não terminou"), so an upload cut off by a crash is never imported half.
 */
export async function uploadImport(
  db: Db,
  accountId: string,
  body: Readable,
  fileName: string | null,
): Promise<ImportUpload> {
  await deleteStaleUploads(db, accountId);
  const [row] = await db
    .insert(contactImports)
    .values({
      accountId,
      fileName: fileName?.slice(0, 255) ?? null,
      status: 'failed',
      error: 'O envio do arquivo não terminou. Envie o arquivo de novo.',
      fileInfo: { delimiter: ',', encoding: 'utf-8', hasBom: false, columns: [], sizeBytes: 0 },
    })
    .returning({ id: contactImports.id });
  if (!row) throw new Error('import insert returned nothing');
  let inspection: CsvInspection;
  try {
    let bytes = 0;
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_IMPORT_BYTES) body.destroy(new AppError('payload_too_large', ERROR_TEXT.imports.fileTooLarge));
    });
    inspection = await inspectCsv(storeUpload(db, row.id, body as AsyncIterable<Buffer>));
  } catch (error) {
    await db.delete(contactImports).where(eq(contactImports.id, row.id));
    throw error;
  }
  await db
    .update(contactImports)
    .set({ status: 'uploaded', error: null, fileInfo: inspection.info, totalRows: inspection.totalRows })
    .where(eq(contactImports.id, row.id));
  return {
    importId: row.id,
    totalRows: inspection.totalRows,
    delimiter: inspection.info.delimiter,
    encoding: inspection.info.encoding,
    hasBom: inspection.info.hasBom,
    columns: inspection.info.columns,
    preview: inspection.preview,
    suggestedMapping: inspection.suggestedMapping,
    suggestedTypes: inspection.suggestedTypes,
  };
}

async function requireImport(db: Db, accountId: string, importId: string) {
  const [row] = await db
    .select()
    .from(contactImports)
    .where(and(eq(contactImports.accountId, accountId), eq(contactImports.id, importId)));
  if (!row) throw notFound('import');
  return row;
}

/**
 * Validates the mapping step and queues the import; the caller enqueues the job. Into a double opt-in list, the
 * import will ask each new member for consent by e-mail: refused at once (403) when the person or the account's
 * default sender is not verified, rather than failing at the first batch.
 */
export async function startImport(
  db: Db,
  accountId: string,
  importId: string,
  input: ImportStartInput,
  actor?: { emailVerified: boolean },
): Promise<void> {
  const row = await requireImport(db, accountId, importId);
  if (row.status !== 'uploaded' && row.status !== 'failed') {
    throw new AppError('conflict', ERROR_TEXT.imports.alreadyStarted);
  }
  const emailColumns = Object.entries(input.mapping).filter(([, target]) => target === 'email');
  if (emailColumns.length !== 1) {
    throw new AppError('validation_failed', ERROR_TEXT.imports.oneEmailColumn);
  }
  if (!row.fileInfo.columns.includes((emailColumns[0] as [string, string])[0])) {
    throw new AppError('validation_failed', ERROR_TEXT.imports.emailColumnMissing);
  }
  for (const [column, type] of Object.entries(input.fieldTypes ?? {})) {
    if (type !== 'text' && !input.mapping[column]?.startsWith('field:')) {
      throw new AppError(
        'validation_failed',
        `A coluna "${column}" tem um tipo, mas não vai para um campo personalizado: escolha o campo ou tire o tipo.`,
      );
    }
  }
  if (input.listId) {
    const [list] = await findListSummaries(db, [input.listId], accountId);
    if (!list) throw notFound('list');
    if (list.optIn === 'double') await assertMayAskConsent(db, accountId, actor);
  }
  await db
    .update(contactImports)
    .set({ status: 'queued', listId: input.listId ?? null, options: input, updatedAt: new Date() })
    .where(eq(contactImports.id, importId));
}

/** The progress of an import (contact_upload_progress); 404 for another account's import. */
export async function findImport(db: Db, accountId: string, importId: string): Promise<ImportProgress> {
  const row = await requireImport(db, accountId, importId);
  const total = Math.max(row.totalRows, row.processedRows);
  const percent =
    row.status === 'done' ? 100 : total > 0 ? Math.min(99, Math.floor((row.processedRows / total) * 100)) : 0;
  return {
    id: row.id,
    status: row.status,
    fileName: row.fileName,
    totalRows: total,
    processedRows: row.processedRows,
    percent,
    inserted: row.inserted,
    updated: row.updated,
    unchanged: row.unchanged,
    skippedInvalid: row.skippedInvalid,
    skippedDuplicate: row.skippedDuplicate,
    skippedSuppressed: row.skippedSuppressed,
    rejectedCount: row.rejectedCount,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The rejected-rows CSV of a finished import of the account (its chunks, in order), or 404. */
export async function findRejectedFile(db: Db, accountId: string, importId: string): Promise<AsyncIterable<Buffer>> {
  const row = await requireImport(db, accountId, importId);
  const [first] = await db
    .select({ seq: contactImportFiles.seq })
    .from(contactImportFiles)
    .where(
      and(
        eq(contactImportFiles.importId, row.id),
        eq(contactImportFiles.kind, 'rejected'),
        eq(contactImportFiles.seq, 0),
      ),
    );
  if (row.status !== 'done' || row.rejectedCount === 0 || !first) {
    throw new AppError('not_found', ERROR_TEXT.imports.noRejectedRows);
  }
  return readImportFile(db, row.id, 'rejected');
}
