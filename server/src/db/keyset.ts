import { type SQL, sql } from 'drizzle-orm';
import { AppError } from '../http/app-error';
import { ERROR_TEXT } from '../http/error-texts';

/**
 * Keyset pagination, the one way every list of the API pages: rows newest first by (timestamp, id), and the
 * cursor of the next page is the (timestamp, id) of the last row, opaque to the client. Page N costs what page 1
 * costs, and rows inserted meanwhile never shift a page.
 */

/** A timestamp column as exact text (microseconds, UTC), for the cursor: a JavaScript Date would drop the µs. */
export function cursorTimestampSql(column: SQL): SQL {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export function encodeKeysetCursor(at: string, id: string): string {
  return Buffer.from(`${at}|${id}`).toString('base64url');
}

/** The (timestamp, id) a cursor names; 400 `bad_request` when it is not one of ours. */
export function decodeKeysetCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(Date.parse(at))) {
    throw new AppError('bad_request', ERROR_TEXT.pagination.invalidCursor);
  }
  return { at, id };
}

/** `(at, id) < cursor`: the rows after the cursor's in newest-first order. */
export function afterKeysetCursorSql(atColumn: SQL, idColumn: SQL, cursor: string): SQL {
  const { at, id } = decodeKeysetCursor(cursor);
  return sql`(${atColumn}, ${idColumn}) < (${at}::timestamptz, ${id}::uuid)`;
}

/** The page of `limit` rows out of `limit + 1` read, and the cursor of the next one (null on the last page). */
export function keysetPage<T extends { cursor_at: unknown; id: unknown }>(
  rows: T[],
  limit: number,
): { rows: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? encodeKeysetCursor(String(last.cursor_at), String(last.id)) : null,
  };
}
