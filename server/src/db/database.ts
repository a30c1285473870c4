import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import * as schema from './schema';

export type Schema = typeof schema;
/** The Drizzle database every module receives: the same type on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The transaction a `db.transaction(async (tx) => …)` callback receives. */
export type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database handle or an open transaction: what a module's function takes to run alone or in its caller's. */
export type DbOrTx = Db | DbTransaction;

/**
 * A transaction where a module's function takes a `Db`, so the same function runs alone or inside the caller's
 * transaction. Drizzle's transaction has every query method of the database but not its type (`$client` and
 * `transaction` differ); the one cast lives here.
 */
export function asDb(tx: Db | DbTransaction): Db {
  return tx as unknown as Db;
}

export type DatabaseTarget =
  /** `fromDump`: an in-memory database started from a `dumpDataDir()` tarball instead of an empty cluster. */
  | { kind: 'pglite'; dataDir: string | null; fromDump?: Blob }
  | { kind: 'postgres'; url: string; poolSize?: number; searchPath?: string };

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** The raw PGlite instance (embedded mode), for pg-boss's adapter. */
  pglite: PGlite | null;
  /** The pg pool (PostgreSQL mode). */
  pool: pg.Pool | null;
  /** Applies pending drizzle-kit migrations (idempotent). */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** server/drizzle, from src/db (tests, tsx) or from dist (the built server). */
export const MIGRATIONS_DIR = path.resolve(
  here,
  here.endsWith(path.join('src', 'db')) ? '../../drizzle' : '../drizzle',
);

// PostgreSQL returns BIGINT (int8) as a string by default; our amounts are millis that fit a JS safe integer.
pg.types.setTypeParser(20, (value) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${value} exceeds the safe integer range`);
  return n;
});

/**
 * Opens the embedded PGlite database (locking its directory; `dataDir: null` = in memory) or a PostgreSQL pool.
 * Throws DataDirInUseError when another process holds the directory.
 */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      ...(target.searchPath ? { options: `-c search_path=${target.searchPath}` } : {}),
    });
    pool.on('error', () => {
      // An idle client lost its connection (database restart): the pool drops it and reconnects on next use.
    });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    return {
      kind: 'postgres',
      db,
      pglite: null,
      pool,
      migrate: () => migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder: MIGRATIONS_DIR }),
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }

  const release = target.dataDir ? lockDataDir(target.dataDir) : () => {};
  try {
    const pglite = target.dataDir
      ? new PGlite(path.join(target.dataDir, 'pgdata'))
      : new PGlite(target.fromDump ? { loadDataDir: target.fromDump } : {});
    await pglite.waitReady;
    const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
    return {
      kind: 'pglite',
      db,
      pglite,
      pool: null,
      migrate: () => migratePglite(drizzlePglite({ client: pglite, schema }), { migrationsFolder: MIGRATIONS_DIR }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: async () => {
        try {
          await pglite.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Runs raw SQL and returns its rows, on PGlite and PostgreSQL alike (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

interface SessionInternals {
  session?: {
    dialect?: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
    prepareQuery?(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
}

/**
 * `queryRows` as a NAMED prepared statement on PostgreSQL: each pooled connection parses it once, and PostgreSQL
 * may keep its plan — for the statements of the hot paths (every `/api/v1` call's key + rate limit, a
 * transactional send's reads), where parsing and planning a CTE costs as much as running it. `name` must be
 * unique per distinct SQL text (node-postgres refuses one name for two texts): derive it from the statement's
 * shape. PGlite ignores the name (it is in-process: nothing to save). Works on a transaction too (its session).
 */
export async function queryRowsNamed<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const session = (db as unknown as SessionInternals).session;
  if (!session?.dialect || !session.prepareQuery) return queryRows<T>(db, query);
  const prepared = session.prepareQuery(session.dialect.sqlToQuery(query), undefined, name, false);
  const result = (await prepared.execute()) as { rows: T[] };
  return result.rows;
}
