import { createHash } from 'node:crypto';
import {
  isFileReference,
  MESSAGE_ATTACHMENTS_MAX_BYTES,
  MESSAGE_FILE_RETENTION_DAYS,
  type MessageFile,
  type MessageFileUploadInput,
  type TransactionalMessageInput,
  type TransactionalMessageRequest,
} from '@carteiro/shared';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { asDb, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { notFound } from '../../http/not-found';
import { renderError } from '../transactional/send-transactional';
import { formatMegabytes } from '../uploads/uploads';
import { type MessageFileRow, messageFiles } from './message-files.db';

const DAY_MS = 86_400_000;

function toMessageFile(row: Omit<MessageFileRow, 'content' | 'accountId'>): MessageFile {
  return {
    id: row.id,
    filename: row.filename,
    contentType: row.contentType,
    size: row.size,
    sha256: row.sha256,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

const listed = {
  id: messageFiles.id,
  filename: messageFiles.filename,
  contentType: messageFiles.contentType,
  size: messageFiles.size,
  sha256: messageFiles.sha256,
  createdAt: messageFiles.createdAt,
  expiresAt: messageFiles.expiresAt,
};

/**
 * Stores an uploaded file of the account (its bytes, hashed). The same bytes uploaded again are the same file:
 * same id, with the name and type of this upload and its retention counted again from now.
 *
 * The account's unexpired files may total at most `quotaBytes` after the upload (the same bytes again add
 * nothing); past it, 409 `file_quota_exceeded` with what is used, nothing stored. Race-safe: uploads of one account
 * take a transaction lock first, and the sum and the conditional insert are one later statement, so its snapshot
 * sees every upload committed before the lock was granted (READ COMMITTED takes a snapshot per statement).
 */
export async function saveMessageFile(
  db: Db,
  accountId: string,
  input: MessageFileUploadInput,
  opts: { quotaBytes: number; now?: Date },
): Promise<{ file: MessageFile; created: boolean }> {
  const now = opts.now ?? new Date();
  const bytes = Buffer.from(input.content, 'base64');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const expiresAt = new Date(now.getTime() + MESSAGE_FILE_RETENTION_DAYS * DAY_MS);
  const [row] = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`message-files:${accountId}`}))`);
    return queryRows<SavedRowSql>(
      asDb(tx),
      sql`with used as (
            select coalesce(sum(size), 0)::bigint as n from message_files
             where account_id = ${accountId} and expires_at > ${now.toISOString()}::timestamptz
               and sha256 <> ${sha256}),
          saved as (
            insert into message_files (account_id, filename, content_type, size, sha256, content, created_at, expires_at)
            select ${accountId}, ${input.filename}, ${input.contentType}, ${bytes.length}, ${sha256},
                   decode(${bytes.toString('base64')}, 'base64'), ${now.toISOString()}::timestamptz,
                   ${expiresAt.toISOString()}::timestamptz
              from used where used.n + ${bytes.length} <= ${opts.quotaBytes}
            on conflict (account_id, sha256) do update
               set filename = excluded.filename, content_type = excluded.content_type, expires_at = excluded.expires_at
            returning id, filename, content_type, size, sha256, created_at, expires_at, xmax = 0 as created)
          select saved.*, used.n::float8 as used_bytes from used left join saved on true`,
    );
  });
  if (!row) throw new Error('message_files upsert returned nothing');
  if (row.id === null) {
    const usedBytes = Number(row.used_bytes);
    throw new AppError(
      'file_quota_exceeded',
      `Espaço de arquivos cheio: esta conta guarda até ${formatMegabytes(opts.quotaBytes)} em arquivos enviados e já usa ${formatMegabytes(usedBytes)}; este arquivo tem ${formatMegabytes(bytes.length)}. Apague arquivos que não usa mais (DELETE /api/v1/files/{id}) ou espere que expirem.`,
      { quotaBytes: opts.quotaBytes, usedBytes, fileBytes: bytes.length },
    );
  }
  return { file: toMessageFile(fromSql(row)), created: Boolean(row.created) };
}

interface FileRowSql {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: Date | string;
  expires_at: Date | string;
}

/** The upload's statement: the file, or nulls when the quota refused it; the account's other live bytes. */
type SavedRowSql = ({ id: null } | FileRowSql) & { used_bytes: number; created: boolean | null };

function fromSql(row: FileRowSql): Omit<MessageFileRow, 'content' | 'accountId'> {
  return {
    id: row.id,
    filename: row.filename,
    contentType: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}

/** One uploaded file of the account (never another account's, nor an expired one). */
export async function findMessageFile(db: Db, accountId: string, id: string, now = new Date()): Promise<MessageFile> {
  const [row] = await db
    .select(listed)
    .from(messageFiles)
    .where(and(eq(messageFiles.accountId, accountId), eq(messageFiles.id, id), gt(messageFiles.expiresAt, now)));
  if (!row) throw notFound('fileOrExpired');
  return toMessageFile(row);
}

/**
 * Erases an uploaded file now (LGPD: the bytes go at once). Messages already accepted with it that have not gone
 * yet lose it: the engine fails and refunds them rather than sending them without the file.
 */
export async function deleteMessageFile(db: Db, accountId: string, id: string): Promise<void> {
  const gone = await db
    .delete(messageFiles)
    .where(and(eq(messageFiles.accountId, accountId), eq(messageFiles.id, id)))
    .returning({ id: messageFiles.id });
  if (gone.length === 0) throw notFound('file');
}

/**
 * The files `fileId` refers to in these messages, checked: each must be an unexpired upload of the account
 * (else 404 naming the message and the attachment), and each message's files together stay within 10 MB. The
 * answer carries each referenced file's name, type and size — its bytes stay in the database, where the engine
 * reads them when it builds the message (one upload, many messages, no copy).
 */
export async function resolveMessageFiles(
  db: Db,
  accountId: string,
  requests: TransactionalMessageRequest[],
  now = new Date(),
): Promise<TransactionalMessageInput[]> {
  const ids = [...new Set(requests.flatMap((m) => (m.attachments ?? []).filter(isFileReference).map((a) => a.fileId)))];
  if (ids.length === 0) return requests as TransactionalMessageInput[];
  const rows = await db
    .select({
      id: messageFiles.id,
      filename: messageFiles.filename,
      contentType: messageFiles.contentType,
      size: messageFiles.size,
    })
    .from(messageFiles)
    .where(and(eq(messageFiles.accountId, accountId), inArray(messageFiles.id, ids), gt(messageFiles.expiresAt, now)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const fail = (code: 'not_found' | 'validation_failed', index: number, field: string, message: string) => {
    const e = renderError(index, requests.length, field, message);
    return code === 'not_found' ? new AppError('not_found', e.message, e.details) : e;
  };
  return requests.map((message, index) => {
    if (!message.attachments?.some(isFileReference)) return message as TransactionalMessageInput;
    const attachments = message.attachments.map((a, position) => {
      if (!isFileReference(a)) return a;
      const file = byId.get(a.fileId);
      if (!file) {
        throw fail(
          'not_found',
          index,
          `attachments.${position}.fileId`,
          `Anexo ${position + 1}: arquivo não encontrado nesta conta ou expirado (os arquivos ficam ${MESSAGE_FILE_RETENTION_DAYS} dias). Envie-o de novo por POST /api/v1/files.`,
        );
      }
      return {
        fileId: file.id,
        filename: a.filename ?? file.filename,
        contentType: a.contentType ?? file.contentType,
        ...(a.contentId !== undefined ? { contentId: a.contentId } : {}),
        size: file.size,
      };
    });
    if (attachments.reduce((sum, a) => sum + a.size, 0) > MESSAGE_ATTACHMENTS_MAX_BYTES) {
      throw fail(
        'validation_failed',
        index,
        'attachments',
        'Os anexos somam mais de 10 MB; o máximo é 10 MB por mensagem.',
      );
    }
    return { ...message, attachments };
  });
}

/**
 * The retention: erases uploaded files past `expires_at`, except those a queued message still refers to (the
 * engine reads the bytes when it builds the message; a scheduled or deferred one may go days later). Idempotent.
 */
export async function sweepExpiredMessageFiles(db: Db, now = new Date()): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from message_files f
           where f.id in (select e.id from message_files e
                           where e.expires_at <= ${now.toISOString()}::timestamptz
                             and not exists (
                                   select 1 from transactional_attachments a
                                    where a.file_id = e.id
                                      and (exists (select 1 from messages m
                                                    where m.id = a.message_id and m.status = 'queued')
                                           -- its cc/bcc copies read the files of the to row
                                           or exists (select 1 from transactional_messages t
                                                        join messages m on m.id = t.message_id
                                                       where t.copy_of = a.message_id and m.status = 'queued')))
                           limit 1000)
          returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}
