import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Database, type Db, MIGRATIONS_DIR, openDatabase, queryRows } from '../../src/db/database';

export type DatabaseKind = 'pglite' | 'postgres';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. Integration suites run once per kind. */
export const DATABASE_KINDS: DatabaseKind[] = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * A fresh, migrated database of that kind for one test file: in-memory PGlite, or a new PostgreSQL database
 * (created from TEST_DATABASE_URL, dropped on close) so parallel test workers never share state. A migration's own
 * test passes `migrated: false` and migrates it itself.
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: { migrated?: boolean } = {},
): Promise<Database & { url: string | null }> {
  const migrated = options.migrated ?? true;
  if (kind === 'pglite') {
    if (!migrated) return { ...(await openDatabase({ kind: 'pglite', dataDir: null })), url: null };
    const database = await openDatabase({ kind: 'pglite', dataDir: null, fromDump: await migratedPgliteDump() });
    // Applies nothing when the dump is current; it is the same call a real start makes.
    await database.migrate();
    return { ...database, url: null };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `carteiro_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    // A migrated one is a copy of the migrated template (made once per set of migrations): a file copy on the
    // server instead of 46 migrations per database.
    const template = migrated ? await migratedPostgresTemplate(admin) : null;
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5 });
  // Applies nothing on a copy of the template; it is the same call a real start makes.
  if (migrated) await database.migrate();
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * A database with the schema as it was before one migration (named by the end of its tag, e.g.
 * `_campaign_report_rollup`): a migration's own test puts rows in it, then runs `database.migrate()` and checks what
 * the migration made of them.
 */
export async function createDatabaseBeforeMigration(
  kind: DatabaseKind,
  tagEnd: string,
): Promise<Database & { url: string | null }> {
  const before = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-migrations-'));
  try {
    fs.cpSync(MIGRATIONS_DIR, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
    const at = journal.entries.findIndex((e) => e.tag.endsWith(tagEnd));
    if (at <= 0) throw new Error(`no migration tagged …${tagEnd} after the first`);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(journalPath, JSON.stringify(journal));
    const database = await createTestDatabase(kind, { migrated: false });
    if (database.pglite) {
      await migratePglite(drizzlePglite({ client: database.pglite }), { migrationsFolder: before });
    } else {
      await migratePg(drizzlePg({ client: database.pool as NonNullable<typeof database.pool> }), {
        migrationsFolder: before,
      });
    }
    return database;
  } finally {
    fs.rmSync(before, { recursive: true, force: true });
  }
}

/**
 * What a migrated test database is made from, keyed by the migration files (and, for PGlite, its release): an
 * upgrade or a new migration makes a new one, and runs with other migrations (other branches) never share one.
 */
function migrationsKey(...extra: string[]): string {
  const hash = createHash('sha256');
  for (const part of extra) hash.update(part);
  // Relative names: worktrees and clones with the same migrations share one.
  for (const file of migrationFiles(MIGRATIONS_DIR)) {
    hash.update(path.relative(MIGRATIONS_DIR, file)).update(fs.readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * A migrated, empty PGlite cluster as a tarball, made once per set of migrations and kept in the system's temp
 * folder for every test process: starting from it skips initdb and the migrations, most of a test file's set-up.
 * Its name carries a hash of the PGlite version and the migration files, so an upgrade or a new migration makes a new
 * one. Kept uncompressed: PGlite unpacks a gzipped one in WebAssembly, ≈ 0.4 s of CPU per database
 * (docs/benchmarks.md, "Test suite time").
 */
async function migratedPgliteDump(): Promise<Blob> {
  // The cluster's format belongs to the PGlite release: its version is part of the key, beside the migrations.
  const cached = path.join(os.tmpdir(), `carteiro-pglite-migrated-${migrationsKey(pgliteVersion())}.tar`);
  if (fs.existsSync(cached)) return new Blob([fs.readFileSync(cached)]);
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    await database.migrate();
    const dump = await (database.pglite as NonNullable<Database['pglite']>).dumpDataDir('none');
    // Written beside, then renamed: a test process reading it never sees half a file.
    const partial = `${cached}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, cached);
    return dump;
  } finally {
    await database.close();
  }
}

/**
 * The name of a migrated, empty PostgreSQL database every migrated test database is copied from (`create database
 * … template …`), made once per set of migrations and kept on the server like the PGlite tarball (a few MB; its
 * name carries the migrations' hash). It refuses connections, so nothing can change it and a copy never waits on
 * a session in it. Made under a temporary name and renamed when complete, under an advisory lock, so parallel test
 * processes make it once and never copy half of one.
 */
async function migratedPostgresTemplate(admin: pg.Client): Promise<string> {
  const name = `carteiro_template_${migrationsKey()}`;
  const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (await exists()) return name;
  await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
  try {
    if (await exists()) return name;
    const partial = `${name}_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${partial}`);
    const url = new URL(TEST_DATABASE_URL as string);
    url.pathname = `/${partial}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      await admin.query(`drop database if exists ${partial} with (force)`);
      throw error;
    }
    await database.close();
    await admin.query(`alter database ${partial} with allow_connections false`);
    // A closed pool's sessions end a moment later on the server; renaming needs them gone.
    await admin.query('select pg_terminate_backend(pid, 10000) from pg_stat_activity where datname = $1', [partial]);
    await admin.query(`alter database ${partial} rename to ${name}`);
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
  }
}

function migrationFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? migrationFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    )
    .sort();
}

/** The installed PGlite's version (its package.json is not exported, so it is read from the package's folder). */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const root = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
  return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
}

/**
 * A bare account row (no user, no membership) and its id: what a migration's test puts its data under in a database
 * created before the migration, where the app's sign-up (which writes today's schema) cannot run.
 */
export async function insertAccountRow(db: Db, name = 'Loja'): Promise<string> {
  const [account] = await queryRows<{ id: string }>(
    db,
    sql`insert into accounts (uuid, owner_user_id, name) values (gen_random_uuid(), 'owner', ${name}) returning id`,
  );
  if (!account) throw new Error('account insert returned no row');
  return account.id;
}
