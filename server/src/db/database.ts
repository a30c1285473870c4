import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
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
  /** `cores`: of the database's machine (default: databaseCores). */
  | { kind: 'postgres'; url: string; poolSize?: number; searchPath?: string; cores?: number };

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

/** PostgreSQL's default max_parallel_workers_per_gather: a parallel query runs 2 workers besides the leader. */
const POSTGRES_DEFAULT_WORKERS_PER_GATHER = 2;

/**
 * The cores of the database's machine as far as this process can tell: the configured number (DATABASE_CORES), or
 * this machine's when the database listens on it (a loopback address or a local socket); unknown otherwise.
 */
export function databaseCores(url: string, configured?: number): number | undefined {
  if (configured !== undefined) return configured;
  const parsed = new URL(url);
  const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname);
  const local = host === '' || host.startsWith('/') || host === 'localhost' || /^127\.|^\[?::1\]?$/.test(host);
  return local ? os.availableParallelism() : undefined;
}

/**
 * The settings every session of the pool starts with (libpq's `options`). A parallel query runs the leader and
 * max_parallel_workers_per_gather workers; on a machine with fewer cores than that (PostgreSQL's default on one or
 * two cores) the processes take turns on the cores, and segment counts' scans took 1.2–2× longer than with one
 * process per core (ADR 0044): the sessions then plan cores − 1 workers. A larger machine keeps the server's own
 * setting.
 */
function sessionOptions(target: Extract<DatabaseTarget, { kind: 'postgres' }>): string | undefined {
  const options: string[] = [];
  if (target.searchPath) options.push(`-c search_path=${target.searchPath}`);
  const cores = databaseCores(target.url, target.cores);
  if (cores !== undefined && cores - 1 < POSTGRES_DEFAULT_WORKERS_PER_GATHER) {
    options.push(`-c max_parallel_workers_per_gather=${Math.max(0, cores - 1)}`);
  }
  return options.length > 0 ? options.join(' ') : undefined;
}

/**
 * Opens the embedded PGlite database (locking its directory; `dataDir: null` = in memory) or a PostgreSQL pool.
 * Throws DataDirInUseError when another process holds the directory.
 */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const options = sessionOptions(target);
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      ...(options ? { options } : {}),
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

/**
 * True when `error` is PostgreSQL's error of SQLSTATE `code` (23505 unique violation, 57014 query canceled…), from pg
 * or PGlite, possibly wrapped by Drizzle (its query error keeps the driver's as `cause`).
 */
export function hasSqlState(error: unknown, code: string): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === code) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** SQLSTATE of a unique violation. */
export const UNIQUE_VIOLATION = '23505';
/** SQLSTATE of a deadlock PostgreSQL detected (it rolled back the transaction that got it). */
export const DEADLOCK_DETECTED = '40P01';

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
      name: string | undefined,
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
 * Not for a statement over tables that grow from empty by orders of magnitude within a run (a queue, an outbox):
 * after five executions PostgreSQL may keep a generic plan costed for the sizes it saw then, and scan the whole
 * table per row once it has grown (the webhook claim did: 77 s for one claim).
 */
export async function queryRowsNamed<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const session = (db as unknown as SessionInternals).session;
  if (!session?.dialect || !session.prepareQuery) return queryRows<T>(db, query);
  const prepared = session.prepareQuery(session.dialect.sqlToQuery(query), undefined, name, false);
  const result = (await prepared.execute()) as { rows: T[] };
  return result.rows;
}

/** What a prebuilt statement's value is: its sentinel must pass the helpers' own checks (a number stays a number). */
export type SlotKind = 'text' | 'text or null' | 'integer';
/** The values of a prebuilt statement's slots, by name. */
export type SlotValues<S extends Record<string, SlotKind>> = {
  [K in keyof S]: S[K] extends 'integer' ? number : S[K] extends 'text' ? string : string | null;
};

export interface PrebuiltStatement<S extends Record<string, SlotKind>> {
  /** The prepared statement's name on PostgreSQL (unique per text, as for queryRowsNamed). */
  readonly name: string;
  readonly text: string;
  /** The statement's parameters for these values, in the text's order. */
  params(values: SlotValues<S>): unknown[];
}

/** Both drivers' dialect (drizzle's default PgDialect); the statement text it makes is the one db.execute sends. */
const dialect = new PgDialect();
/** Mixed case, so that a lower- or upper-cased copy is still recognised as derived from a slot. */
const TEXT_SENTINEL = '\u0001Prebuilt-Slot:';
/** Integer sentinels are above 2^51: no real amount or count of ours is that large, so a derived one is noticed. */
const INTEGER_SENTINEL_BASE = 2 ** 51;

/**
 * A statement whose text never changes, built ONCE per process instead of on every run: on a hot path, drizzle's
 * `sql` tree of a long statement (every column name escaped, every chunk walked and joined) costs as much CPU as
 * running it. `build` composes the statement from its values as usual, with the same helpers of other modules; it
 * runs once here with a unique sentinel per slot, and each sentinel's positions among the parameters become the
 * places every run fills with its values (the other parameters are constants of the text). A value that a helper
 * changes on its way into the statement (negated, lower-cased, joined…) would be baked in as a constant: that
 * throws here, so such a value is a slot of its own, computed by the caller. `build` must give the same text for
 * any values (no branch on a value): a variant is another statement with its own name.
 */
export function prebuildStatement<S extends Record<string, SlotKind>>(
  name: string,
  slots: S,
  build: (values: SlotValues<S>) => SQL,
): PrebuiltStatement<S> {
  const keys = Object.keys(slots) as (keyof S & string)[];
  const sentinels = {} as Record<string, string | number>;
  for (const [i, key] of keys.entries()) {
    sentinels[key] = slots[key] === 'integer' ? INTEGER_SENTINEL_BASE + i * 7919 : `${TEXT_SENTINEL}${key}\u0001`;
  }
  const slotOf = new Map<unknown, keyof S & string>(keys.map((key) => [sentinels[key], key]));
  const query = dialect.sqlToQuery(build(sentinels as SlotValues<S>));
  const constants = [...query.params];
  const places: [number, keyof S & string][] = [];
  const used = new Set<string>();
  for (const [index, param] of constants.entries()) {
    const key = slotOf.get(param);
    if (key !== undefined) {
      places.push([index, key]);
      used.add(key);
      constants[index] = null;
    } else if (
      (typeof param === 'string' && param.toLowerCase().includes(TEXT_SENTINEL.toLowerCase())) ||
      (typeof param === 'number' && Math.abs(param) >= INTEGER_SENTINEL_BASE)
    ) {
      throw new Error(`prebuilt statement ${name}: parameter $${index + 1} is derived from a slot; make it a slot`);
    }
  }
  const unused = keys.filter((key) => !used.has(key));
  if (unused.length > 0)
    throw new Error(`prebuilt statement ${name}: slots never used as they are: ${unused.join(', ')}`);
  return {
    name,
    text: query.sql,
    params(values) {
      const params = constants.slice();
      for (const [index, key] of places) params[index] = values[key];
      return params;
    },
  };
}

/**
 * Runs a prebuilt statement with these values and returns its rows: as a named prepared statement on PostgreSQL
 * when `named` (see queryRowsNamed for when that pays), unnamed otherwise; PGlite ignores the name.
 */
export async function queryPrebuilt<T, S extends Record<string, SlotKind>>(
  db: Db,
  statement: PrebuiltStatement<S>,
  values: SlotValues<S>,
  { named }: { named: boolean },
): Promise<T[]> {
  const session = (db as unknown as SessionInternals).session;
  if (!session?.prepareQuery) throw new Error('queryPrebuilt: this drizzle database has no session to prepare on');
  const query = { sql: statement.text, params: statement.params(values) };
  const result = (await session
    .prepareQuery(query, undefined, named ? statement.name : undefined, false)
    .execute()) as {
    rows: T[];
  };
  return result.rows;
}
