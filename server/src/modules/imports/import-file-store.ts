import { and, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';
import type { Tx } from '../accounts/account-balance';
import { contactImportFiles } from './imports.db';

/**
 * Where an import's files live: in the database (decision 0028), in chunks of about CHUNK_BYTES cut after a line
 * break, so the API that receives an upload and a worker on any machine read the same bytes, and deleting them is
 * one statement — after the import, and when a person's data is erased (LGPD).
 */
export const CHUNK_BYTES = 1024 * 1024;
/** A line longer than this (a broken file) is cut wherever it is: chunks stay bounded. */
const MAX_CHUNK_BYTES = 8 * CHUNK_BYTES;
/** An upload nobody started (or whose import failed) is deleted after this long. */
const STALE_UPLOAD = sql`interval '1 day'`;

export type ImportFileKind = (typeof contactImportFiles.$inferInsert)['kind'];

/** The file is gone (deleted, erased, or its upload never finished): the import fails with this pt-BR reason. */
export class ImportFileMissingError extends Error {}

/** Re-cuts a byte stream into chunks of about CHUNK_BYTES that end after a line break (when there is one). */
export async function* lineAlignedChunks(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const take = (bytes: number): Buffer => {
    const all = Buffer.concat(pending, pendingBytes);
    pending = bytes < all.length ? [all.subarray(bytes)] : [];
    pendingBytes = all.length - bytes;
    return all.subarray(0, bytes);
  };
  for await (const piece of source) {
    pending.push(piece);
    pendingBytes += piece.length;
    while (pendingBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(pending, pendingBytes);
      pending = [all];
      const cut = all.lastIndexOf(0x0a, CHUNK_BYTES - 1);
      if (cut >= 0) yield take(cut + 1);
      else {
        const next = all.indexOf(0x0a, CHUNK_BYTES);
        if (next >= 0 && next < MAX_CHUNK_BYTES) yield take(next + 1);
        else if (pendingBytes >= MAX_CHUNK_BYTES) yield take(MAX_CHUNK_BYTES);
        else break;
      }
    }
  }
  if (pendingBytes > 0) yield take(pendingBytes);
}

/**
 * Stores `source` as the import's upload while passing its bytes on (the inspection reads them as they are
 * stored: one pass, memory bounded by one chunk).
 */
export async function* storeUpload(db: Db, importId: string, source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let seq = 0;
  for await (const chunk of lineAlignedChunks(source)) {
    await db.insert(contactImportFiles).values({ importId, kind: 'upload', seq: seq++, data: chunk });
    yield chunk;
  }
}

/** The chunks of an import's file, in order, one query each (memory bounded by one chunk). */
export async function* readImportFile(db: Db, importId: string, kind: ImportFileKind): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const [row] = await db
      .select({ data: contactImportFiles.data })
      .from(contactImportFiles)
      .where(
        and(
          eq(contactImportFiles.importId, importId),
          eq(contactImportFiles.kind, kind),
          eq(contactImportFiles.seq, seq),
        ),
      );
    if (!row) return;
    yield row.data;
  }
}

/**
 * The upload of an import as it was received, checked whole: it must be there and hold `sizeBytes` bytes, or
 * ImportFileMissingError (never a stream error that takes the worker down).
 */
export async function* readUpload(db: Db, importId: string, sizeBytes: number): AsyncGenerator<Buffer> {
  let read = 0;
  for await (const chunk of readImportFile(db, importId, 'upload')) {
    read += chunk.length;
    yield chunk;
  }
  if (read !== sizeBytes) {
    throw new ImportFileMissingError(
      read === 0
        ? 'O arquivo desta importação não está mais disponível (ele é apagado quando a importação termina, após um pedido de exclusão de dados ou um dia depois do envio). Envie o arquivo de novo.'
        : 'O arquivo desta importação está incompleto: o envio não terminou ou parte dele foi apagada. Envie o arquivo de novo.',
    );
  }
}

/**
 * Writes the rejected-rows report as it is produced: lines are kept in memory until about CHUNK_BYTES, then
 * stored as one chunk. `restart` first drops a report left by an earlier run of the same import.
 */
export class RejectedRowsWriter {
  private lines: string[] = [];
  private bytes = 0;
  private seq = 0;

  constructor(
    private readonly db: Db,
    private readonly importId: string,
  ) {}

  async restart(): Promise<void> {
    await deleteImportFiles(this.db, this.importId, 'rejected');
    this.lines = [];
    this.bytes = 0;
    this.seq = 0;
  }

  write(line: string): void {
    this.lines.push(line);
    this.bytes += line.length;
  }

  /** Stores what is buffered once it is about a chunk's worth (or anything, with `force`). */
  async flush(force = false): Promise<void> {
    if (this.bytes === 0 || (!force && this.bytes < CHUNK_BYTES)) return;
    const data = Buffer.from(this.lines.join(''), 'utf8');
    this.lines = [];
    this.bytes = 0;
    await this.db
      .insert(contactImportFiles)
      .values({ importId: this.importId, kind: 'rejected', seq: this.seq++, data });
  }
}

/** Deletes an import's files (one kind, or all). */
export async function deleteImportFiles(db: Db | Tx, importId: string, kind?: ImportFileKind): Promise<void> {
  await db
    .delete(contactImportFiles)
    .where(
      kind
        ? and(eq(contactImportFiles.importId, importId), eq(contactImportFiles.kind, kind))
        : eq(contactImportFiles.importId, importId),
    );
}

/** Deletes the uploads of the account's imports that were never started, or failed, more than a day ago. */
export async function deleteStaleUploads(db: Db, accountId: string): Promise<void> {
  await queryRows(
    db,
    sql`delete from contact_import_files f using contact_imports i
         where f.import_id = i.id and f.kind = 'upload' and i.account_id = ${accountId}
           and i.status in ('uploaded', 'failed') and i.created_at < now() - ${STALE_UPLOAD}`,
  );
}

/**
 * LGPD erasure: deletes every stored file (uploads and rejected-rows reports) of the account's imports that
 * mentions `email`, compared without case on the bytes' ASCII letters (so `Ana@Exemplo.COM` in a file matches).
 * Chunks end after a line break, so an address never spans two of them. An import still running fails once its
 * file is gone. Meant to run in the erasure's own transaction.
 */
export async function deleteImportFilesMentioning(db: Db | Tx, accountId: string, email: string): Promise<void> {
  await queryRows(
    db as Db,
    sql`delete from contact_import_files f using contact_imports i
         where f.import_id = i.id and i.account_id = ${accountId}
           and f.import_id in (
             select m.import_id from contact_import_files m join contact_imports mi on mi.id = m.import_id
              where mi.account_id = ${accountId}
                and position(lower(encode(convert_to(${email.toLowerCase()}, 'UTF8'), 'escape'))
                             in lower(encode(m.data, 'escape'))) > 0)`,
  );
}
