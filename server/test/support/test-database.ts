import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Database, MIGRATIONS_DIR, openDatabase } from '../../src/db/database';

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
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5 });
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
 * A migrated, empty PGlite cluster as a tarball, made once per set of migrations and kept in the system's temp
 * folder for every test process: starting from it skips initdb and the migrations, most of a test file's set-up.
 * Its name carries a hash of the PGlite version and the migration files, so an upgrade or a new migration makes a new
 * one.
 */
async function migratedPgliteDump(): Promise<Blob> {
  // The cluster's format belongs to the PGlite release: its version is part of the key, beside the migrations.
  const hash = createHash('sha256').update(pgliteVersion());
  for (const file of migrationFiles(MIGRATIONS_DIR)) hash.update(file).update(fs.readFileSync(file));
  const cached = path.join(os.tmpdir(), `carteiro-pglite-migrated-${hash.digest('hex').slice(0, 16)}.tar.gz`);
  if (fs.existsSync(cached)) return new Blob([fs.readFileSync(cached)]);
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    await database.migrate();
    const dump = await (database.pglite as NonNullable<Database['pglite']>).dumpDataDir('gzip');
    // Written beside, then renamed: a test process reading it never sees half a file.
    const partial = `${cached}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, cached);
    return dump;
  } finally {
    await database.close();
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
