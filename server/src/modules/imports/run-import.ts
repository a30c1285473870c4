import {
  describeEmailProblem,
  type FieldType,
  type ImportStartInput,
  normaliseEmail,
  typedFieldValue,
} from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { asDb, type Db, DEADLOCK_DETECTED, hasSqlState, queryRows, UNIQUE_VIOLATION } from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';
import type { Tx } from '../accounts/account-balance';
import { csvCell } from '../contacts/export-contacts';
import { upsertContactBatch } from '../contacts/upsert-contact-batch';
import { addContactsToList } from '../subscriptions/add-contacts-to-lists';
import type { ConsentLinks } from '../subscriptions/consent-requests';
import { CsvRecords } from './csv-records';
import { deleteImportFiles, RejectedRowsWriter, readUpload } from './import-file-store';
import { contactImportBatches, contactImports } from './imports.db';
import { SeenEmails } from './seen-emails';

export const IMPORT_JOB = 'contacts.import';
/**
 * The import job's queue: a running import sends pg-boss a heartbeat every 5 s, so when its worker dies the job is
 * handed to another worker within seconds (not after an expiry of minutes), and runs again from its recorded
 * batches. Retries are for dead workers only: an import's own failures end it as `failed` with a reason.
 */
export const IMPORT_QUEUE_OPTIONS = { heartbeatSeconds: 10, retryLimit: 10, retryDelay: 0 };
export const IMPORT_BATCH_SIZE = 10_000;
/** Batches written at the same time (PostgreSQL uses one connection each; PGlite queues them). */
export const IMPORT_CONCURRENCY = 2;

/** Header of the reason column appended to the file's own columns in the rejected-rows CSV. */
export const REJECT_REASON_HEADER = 'Motivo da recusa';

export const REJECT_REASONS = {
  empty: 'E-mail vazio',
  /** The generic text; the report says why (describeEmailProblem). */
  invalid: 'E-mail inválido',
  duplicate: 'E-mail repetido no arquivo',
  suppressed: 'Endereço na lista de supressão (descadastrado ou dados apagados a pedido do titular)',
} as const;

/** The valid rows of one batch, column by column (fewer objects per row than one object per row). */
interface PendingBatch {
  emails: string[];
  names: Array<string | null>;
  /** One array per custom field (the import's field keys, in order): each row's value, or null when empty. */
  fields: Array<Array<string | null>>;
  /** The record as read, for the rejected-rows report (a suppressed address is only known after writing). */
  raws: string[][];
}

function emptyBatch(fieldCount: number): PendingBatch {
  return { emails: [], names: [], fields: Array.from({ length: fieldCount }, () => []), raws: [] };
}

type ImportJob = typeof contactImports.$inferSelect;

/** An import's running totals, written as its progress and its final counts. */
interface ImportCounters {
  processed: number;
  inserted: number;
  updated: number;
  unchanged: number;
  invalid: number;
  duplicate: number;
  suppressed: number;
  rejected: number;
}

/** Where the file's columns go: the e-mail, the name and the custom fields, as the import's mapping says. */
interface ColumnMap {
  emailIndex: number;
  nameIndex: number;
  /** Custom fields: the key and the columns mapped to it (several columns on one key: the last non-empty wins). */
  fieldColumns: Array<{ key: string; indexes: number[] }>;
  /** The typed (date, number) custom-field columns by index, with their header for the report's reason. */
  typedColumns: Map<number, { type: FieldType; header: string }>;
}

/** One data row read against the map: its contact's values, or why it is refused (counted as invalid). */
type RowReading =
  | { email: string; name: string | null; values: Array<string | null> }
  | { email: null; rejectReason: string };

/**
 * Runs one import (the pg-boss job body): streams the upload from the database (any worker reads it) through the
 * decoder and csv-parse (memory bounded: one batch at a time), validates and normalises e-mails, skips duplicates
 * inside the file and suppressed addresses, upserts contacts in batches of IMPORT_BATCH_SIZE with one multi-row
 * statement, adds them to the target list, stores the rejected rows with their pt-BR reason as a CSV report, and
 * updates the progress counters about once a second. Each batch is recorded in the transaction that writes it:
 * run again after its worker died, the import re-reads the file, skips the batches already written and adds
 * their recorded counts, so nothing is written twice and the counters come out exact. When it ends (done or
 * failed) the upload is deleted. A missing, incomplete or unreadable file fails the import with a pt-BR reason;
 * nothing here throws past the job.
 */
export async function runImport(
  db: Db,
  importId: string,
  links: ConsentLinks,
  logger?: Logger,
  tuning: { batchSize?: number; concurrency?: number } = {},
): Promise<void> {
  const batchSize = tuning.batchSize ?? IMPORT_BATCH_SIZE;
  const concurrency = tuning.concurrency ?? IMPORT_CONCURRENCY;
  const job = await startImportRun(db, importId);
  if (!job) return;
  const options = job.options as unknown as ImportStartInput;
  const accountId = job.accountId;
  const info = job.fileInfo;
  // Batches a previous run of this import (a worker that died) already wrote.
  const writtenBefore = await recordedBatches(db, importId);
  await markRunning(db, importId);

  const counters: ImportCounters = {
    processed: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    invalid: 0,
    duplicate: 0,
    suppressed: 0,
    rejected: 0,
  };
  const rejected = new RejectedRowsWriter(db, importId);
  await rejected.restart();
  const d = info.delimiter;
  const writeReject = (raw: string[], reason: string) => {
    counters.rejected++;
    rejected.write(`${[...raw, reason].map((c) => csvCell(c, d)).join(d)}\r\n`);
  };
  rejected.write(`\uFEFF${[...info.columns, REJECT_REASON_HEADER].map((c) => csvCell(c, d)).join(d)}\r\n`);

  const contactsBefore = await estimatedRows(db, 'contacts');
  const seen = new SeenEmails();
  let map: ColumnMap | null = null;
  let batch = emptyBatch(0);
  const consentAt = new Date().toISOString();
  // Batches are written while the next one is parsed (at most `concurrency` in flight: memory stays bounded).
  const inFlight = new Set<Promise<void>>();
  let written = 0;
  let lastProgressAt = Date.now();

  const writeProgress = async () => {
    lastProgressAt = Date.now();
    await writeImportProgress(db, importId, written, counters);
  };

  const writeOne = async (rows: PendingBatch, keys: string[], batchNo: number, processedAtFlush: number) => {
    if (rows.emails.length > 0) {
      const outcome =
        writtenBefore.get(batchNo) ??
        (await writeBatch(db, links, accountId, rows, keys, options, consentAt, (tx, result) =>
          recordBatch(tx, importId, batchNo, result),
        ));
      counters.inserted += outcome.inserted;
      counters.updated += outcome.updated;
      counters.unchanged += outcome.unchanged;
      if (outcome.suppressed.size > 0) {
        rows.emails.forEach((email, i) => {
          if (outcome.suppressed.has(email)) {
            counters.suppressed++;
            writeReject(rows.raws[i] as string[], REJECT_REASONS.suppressed);
          }
        });
      }
    }
    written = Math.max(written, processedAtFlush);
    // Progress is written about once a second, not per batch (a progress bar needs no more).
    if (Date.now() - lastProgressAt >= 1000) await writeProgress();
  };

  let batchCount = 0;
  const flush = async () => {
    const rows = batch;
    const keys = map?.fieldColumns.map((f) => f.key) ?? [];
    batch = emptyBatch(keys.length);
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const pending = writeOne(rows, keys, batchCount++, counters.processed);
    inFlight.add(pending);
    pending.then(
      () => inFlight.delete(pending),
      () => {}, // a failure is raised by the final Promise.all
    );
  };

  const onRecord = (record: string[]) => {
    if (!map) {
      map = mapColumns(record, options, info.columns);
      batch = emptyBatch(map.fieldColumns.length);
      return;
    }
    counters.processed++;
    const row = readRow(record, map);
    if (row.email === null) {
      counters.invalid++;
      writeReject(record, row.rejectReason);
      return;
    }
    if (!seen.add(row.email)) {
      counters.duplicate++;
      writeReject(record, REJECT_REASONS.duplicate);
      return;
    }
    row.values.forEach((value, f) => {
      (batch.fields[f] as Array<string | null>).push(value);
    });
    batch.emails.push(row.email);
    batch.names.push(row.name);
    batch.raws.push(record);
  };

  try {
    for await (const records of uploadRecords(db, importId, info)) {
      for (const record of records) {
        onRecord(record);
        if (batch.emails.length >= batchSize) await flush();
      }
      await rejected.flush();
    }
    await flush();
    await Promise.all(inFlight);
    await refreshStatistics(db, counters.inserted, contactsBefore, Boolean(options.listId), logger);
    await writeProgress();
    await rejected.flush(true);
    await finishImport(db, importId, counters.processed);
  } catch (error) {
    await Promise.allSettled(inFlight);
    logger?.warn({ err: error, importId }, 'contact import failed');
    await failImport(db, importId, error);
  }
}

/** The import's row, or null when there is nothing to run (gone, done, or not started by its owner yet). */
async function startImportRun(db: Db, importId: string): Promise<ImportJob | null> {
  const [job] = await db.select().from(contactImports).where(eq(contactImports.id, importId));
  if (!job || job.status === 'done' || job.status === 'uploaded') return null;
  return job;
}

/** Marks the import running with its counters at zero (a run again after a dead worker counts from the start). */
async function markRunning(db: Db, importId: string): Promise<void> {
  await db
    .update(contactImports)
    .set({
      status: 'running',
      startedAt: new Date(),
      updatedAt: new Date(),
      processedRows: 0,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      skippedInvalid: 0,
      skippedDuplicate: 0,
      skippedSuppressed: 0,
      rejectedCount: 0,
      error: null,
    })
    .where(eq(contactImports.id, importId));
}

/**
 * The stored upload as CSV records, one array per chunk read (decoded with the file's encoding, a UTF-8 BOM
 * dropped), then the records left at the end of the file. The array is reused: read it before the next one.
 */
async function* uploadRecords(db: Db, importId: string, info: ImportJob['fileInfo']): AsyncGenerator<string[][]> {
  const csv = new CsvRecords(info.delimiter);
  const decoder = new TextDecoder(info.encoding); // drops a UTF-8 BOM
  const records: string[][] = [];
  for await (const chunk of readUpload(db, importId, info.sizeBytes)) {
    csv.push(decoder.decode(chunk, { stream: true }), records);
    yield records;
    records.length = 0;
  }
  csv.push(decoder.decode(), records);
  csv.end(records);
  yield records;
  records.length = 0;
}

/**
 * Reads the header row against the import's mapping (by the header as read, else by the column's name at
 * inspection): the first e-mail and name columns, up to 100 custom-field columns. No e-mail column fails the import.
 */
function mapColumns(record: string[], options: ImportStartInput, inspected: string[]): ColumnMap {
  const map: ColumnMap = { emailIndex: -1, nameIndex: -1, fieldColumns: [], typedColumns: new Map() };
  let fieldCount = 0;
  const columns = record.map((h) => h.trim());
  columns.forEach((column, i) => {
    const target = options.mapping[column] ?? options.mapping[inspected[i] ?? ''];
    if (target === 'email' && map.emailIndex < 0) map.emailIndex = i;
    else if (target === 'name' && map.nameIndex < 0) map.nameIndex = i;
    else if (target?.startsWith('field:') && fieldCount < 100) {
      fieldCount++;
      const key = target.slice(6);
      const known = map.fieldColumns.find((f) => f.key === key);
      if (known) known.indexes.unshift(i);
      else map.fieldColumns.push({ key, indexes: [i] });
      const type = options.fieldTypes?.[column] ?? options.fieldTypes?.[inspected[i] ?? ''];
      if (type && type !== 'text') map.typedColumns.set(i, { type, header: column });
    }
  });
  if (map.emailIndex < 0) throw new Error('Nenhuma coluna do arquivo foi mapeada para o e-mail.');
  return map;
}

/**
 * One data row: its normalised e-mail, name (200 characters at most) and custom-field values (typed ones checked,
 * text cut at 2000), or the pt-BR reason it is refused: an empty or invalid e-mail, a bad typed value. Field
 * values are read before the caller's duplicate check, so a row refused for a bad date does not hide a later good one.
 */
function readRow(record: string[], map: ColumnMap): RowReading {
  const rawEmail = (record[map.emailIndex] ?? '').trim();
  const email = rawEmail ? normaliseEmail(rawEmail) : null;
  if (!email) {
    return {
      email: null,
      rejectReason: rawEmail ? (describeEmailProblem(rawEmail) ?? REJECT_REASONS.invalid) : REJECT_REASONS.empty,
    };
  }
  const values: Array<string | null> = [];
  for (const field of map.fieldColumns) {
    let value: string | null = null;
    for (const i of field.indexes) {
      const cell = record[i]?.trim();
      if (!cell) continue;
      const typed = map.typedColumns.get(i);
      if (typed) {
        const checked = typedFieldValue(typed.type, cell, typed.header);
        if (checked.problem !== undefined) return { email: null, rejectReason: checked.problem };
        value = checked.value;
      } else value = cell.slice(0, 2000);
      break;
    }
    values.push(value);
  }
  const name = map.nameIndex >= 0 ? record[map.nameIndex]?.trim().slice(0, 200) || null : null;
  return { email, name, values };
}

/** The progress the import's page shows: rows done (of the batches written) and the counters so far. */
async function writeImportProgress(db: Db, importId: string, written: number, counters: ImportCounters) {
  await db
    .update(contactImports)
    .set({
      processedRows: written,
      inserted: counters.inserted,
      updated: counters.updated,
      unchanged: counters.unchanged,
      skippedInvalid: counters.invalid,
      skippedDuplicate: counters.duplicate,
      skippedSuppressed: counters.suppressed,
      rejectedCount: counters.rejected,
      updatedAt: new Date(),
    })
    .where(eq(contactImports.id, importId));
}

/** The import is done: its total, and the upload and batch records gone, in one transaction. */
async function finishImport(db: Db, importId: string, totalRows: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(contactImports)
      .set({ status: 'done', totalRows, finishedAt: new Date(), updatedAt: new Date() })
      .where(eq(contactImports.id, importId));
    await endImport(tx, importId);
  });
}

/**
 * The import failed: its pt-BR reason (a message of ours, else the generic "could not read the file"), and the
 * upload, batch records and partial rejected-rows report gone, in one transaction.
 */
async function failImport(db: Db, importId: string, error: unknown): Promise<void> {
  const message =
    error instanceof Error && /^[A-ZÀ-Ú]/.test(error.message) && !error.message.includes('Error')
      ? error.message
      : 'Não foi possível ler o arquivo. Confira se é um CSV válido e tente de novo.';
  await db.transaction(async (tx) => {
    await tx
      .update(contactImports)
      .set({ status: 'failed', error: message, finishedAt: new Date(), updatedAt: new Date() })
      .where(eq(contactImports.id, importId));
    await endImport(tx, importId);
    await deleteImportFiles(tx, importId, 'rejected');
  });
}

/** What one batch did: contacts created, updated (updateExisting), left as they were, and suppressed addresses. */
interface BatchOutcome {
  inserted: number;
  updated: number;
  unchanged: number;
  suppressed: Set<string>;
}

/** The batches an earlier run of the import wrote, by number. */
async function recordedBatches(db: Db, importId: string): Promise<Map<number, BatchOutcome>> {
  const rows = await db.select().from(contactImportBatches).where(eq(contactImportBatches.importId, importId));
  return new Map(
    rows.map((row) => [
      row.batchNo,
      {
        inserted: row.inserted,
        updated: row.updated,
        unchanged: row.unchanged,
        suppressed: new Set(row.suppressed ? row.suppressed.split('\n') : []),
      },
    ]),
  );
}

/** Records a batch in the transaction that wrote it (so "written" and "recorded" cannot disagree). */
async function recordBatch(tx: Db, importId: string, batchNo: number, outcome: BatchOutcome): Promise<void> {
  await tx.insert(contactImportBatches).values({
    importId,
    batchNo,
    inserted: outcome.inserted,
    updated: outcome.updated,
    unchanged: outcome.unchanged,
    suppressed: [...outcome.suppressed].join('\n'),
  });
}

/** An import that ended (done or failed) keeps no copy of the uploaded file, nor its batch records. */
async function endImport(tx: Tx, importId: string): Promise<void> {
  await deleteImportFiles(tx, importId, 'upload');
  await tx.delete(contactImportBatches).where(eq(contactImportBatches.importId, importId));
}

/** The planner's row count of a table (pg_class.reltuples; 0 when never analysed). */
async function estimatedRows(db: Db, table: 'contacts'): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select greatest(reltuples, 0)::float8 as n from pg_class where oid = to_regclass(${table})`,
  );
  return Number(row?.n ?? 0);
}

/** An import that grew the contacts table by at least this share (and IMPORT_ANALYZE_MIN_ROWS) analyses it. */
export const IMPORT_ANALYZE_SHARE = 0.1;
export const IMPORT_ANALYZE_MIN_ROWS = 1000;

/**
 * After an import that grew the tables noticeably, ANALYZE contacts (and list_memberships when rows joined a
 * list) before the import is marked done: with statistics from before the import, the contact pages of a 1M-row
 * account took 1.5–3 s (unselective search, list filter) instead of a few ms. PGlite never analyses by itself, and
 * PostgreSQL's autovacuum may be off or not have run yet. ~0.65 s at 1M contacts. A failure (e.g. the lock not
 * granted within 5 s because a VACUUM holds it) only costs the statistics, never the import.
 */
async function refreshStatistics(
  db: Db,
  inserted: number,
  contactsBefore: number,
  intoList: boolean,
  logger?: Logger,
): Promise<void> {
  if (inserted < Math.max(IMPORT_ANALYZE_MIN_ROWS, contactsBefore * IMPORT_ANALYZE_SHARE)) return;
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '5s'`);
      await tx.execute(intoList ? sql`analyze contacts, list_memberships` : sql`analyze contacts`);
    });
  } catch (error) {
    logger?.warn({ err: error }, 'contact import: analyze after the import failed');
  }
}

let uuidCounter = Math.floor(Math.random() * 0xffffff);

/**
 * Time-ordered ids (UUID version 7 layout: 48-bit milliseconds, then a counter and random bits) for the contacts
 * of an import, so a million inserts append to the primary-key and membership indexes instead of landing on
 * random pages (a random gen_random_uuid() per row makes the index churn the buffer cache at 1M rows).
 */
export function uuidV7Batch(count: number): string[] {
  const ms = Date.now().toString(16).padStart(12, '0');
  const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');
  const prefix = `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7`;
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    uuidCounter = (uuidCounter + 1) & 0xffffff;
    const c = uuidCounter.toString(16).padStart(6, '0');
    ids[i] = `${prefix}${c.slice(0, 3)}-8${c.slice(3, 6)}-${random}`;
  }
  return ids;
}

/**
 * A batch is one statement of contacts' (upsertContactBatch), then the target list through the consent rule
 * (addContactsToList), in one transaction with the batch's progress.
 */
async function writeBatch(
  db: Db,
  links: ConsentLinks,
  accountId: string,
  rows: PendingBatch,
  fieldKeys: string[],
  options: ImportStartInput,
  consentAt: string,
  record: (tx: Db, outcome: BatchOutcome) => Promise<void>,
  conflictSafe = false,
  idsLiteral?: string,
): Promise<BatchOutcome> {
  const count = rows.emails.length;
  const ids = idsLiteral ?? pgTextArray(uuidV7Batch(count));
  const batch = {
    ids,
    emails: pgTextArray(rows.emails),
    names: pgTextArray(rows.names),
    fieldKeys,
    fieldValues: rows.fields.map((values) => pgTextArray(values)),
  };
  const plain = !options.updateExisting && !conflictSafe;
  // The batch's commit does not wait for its WAL to reach the disk (synchronous_commit off, for this transaction
  // only): a crash can lose the last batches of a running import, which is then re-run from the start (the
  // upserts are idempotent), and the import is only marked done by an ordinary commit, whose flush covers every
  // batch before it. Saves an fsync wait per batch on a busy disk.
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`set local synchronous_commit = off`);
      const result = await upsertContactBatch(asDb(tx), accountId, batch, {
        legalBasis: options.legalBasis,
        consentSource: options.consentSource,
        consentAt,
        updateExisting: options.updateExisting,
        conflictSafe,
        withMembers: Boolean(options.listId),
      });
      const memberIds = result?.members ? result.members.split(',') : [];
      if (options.listId && memberIds.length > 0) {
        await addContactsToList(asDb(tx), links, accountId, options.listId, memberIds, {
          kind: 'sender',
          via: 'importação',
        });
      }
      // Normalised addresses hold no line break: one address per line.
      const suppressed = new Set(result?.suppressed ? result.suppressed.split('\n') : []);
      const inserted = Number(result?.inserted ?? 0);
      const touched = Number(result?.touched ?? 0);
      const candidates = count - suppressed.size;
      const outcome: BatchOutcome = options.updateExisting
        ? { inserted, updated: touched - inserted, unchanged: candidates - touched, suppressed }
        : { inserted, updated: 0, unchanged: candidates - inserted, suppressed };
      await record(asDb(tx), outcome);
      return outcome;
    });
  } catch (error) {
    // Run once more, conflict-safe: after another writer added one of the addresses first, or after a deadlock —
    // a batch bringing a key new to the account waits for the account's field slots until a writer that took
    // them commits, and that writer may wait for an address this batch added (ADR 0045); the batch was rolled back.
    const retry = hasSqlState(error, DEADLOCK_DETECTED) ? !conflictSafe : plain && hasSqlState(error, UNIQUE_VIOLATION);
    if (!retry) throw error;
    return writeBatch(db, links, accountId, rows, fieldKeys, options, consentAt, record, true, ids);
  }
}
