import os from 'node:os';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../test/support/test-database';
import { databaseCores, openDatabase } from './database';

describe('databaseCores', () => {
  it("is this machine's for a database on loopback or a local socket, unknown for another host, the configured number first", () => {
    const here = os.availableParallelism();
    for (const url of [
      'postgres://postgres@127.0.0.1:5432/test',
      'postgres://postgres@localhost/test',
      'postgresql://postgres@[::1]:5432/test',
      'postgres:///test?host=/var/run/postgresql',
      'postgres://postgres@%2Fvar%2Frun%2Fpostgresql/test',
    ]) {
      expect(databaseCores(url), url).toBe(here);
    }
    expect(databaseCores('postgres://app@db.internal:5432/carteiro')).toBeUndefined();
    expect(databaseCores('postgres://app@10.0.0.5/carteiro')).toBeUndefined();
    expect(databaseCores('postgres://postgres@127.0.0.1/test', 16)).toBe(16);
    expect(databaseCores('postgres://app@db.internal/carteiro', 2)).toBe(2);
  });
});

describe.skipIf(!DATABASE_KINDS.includes('postgres'))(
  'the pool plans parallel queries for the database’s cores',
  () => {
    const url = process.env.TEST_DATABASE_URL as string;
    const setting = async (cores: number, searchPath?: string) => {
      const database = await openDatabase({ kind: 'postgres', url, poolSize: 1, cores, searchPath });
      try {
        const { rows } = await (database.pool as pg.Pool).query<{ workers: string; path: string }>(
          `select current_setting('max_parallel_workers_per_gather') as workers, current_setting('search_path') as path`,
        );
        return rows[0];
      } finally {
        await database.close();
      }
    };

    it('one process per core on a machine with fewer cores than PostgreSQL plans for; the server’s own setting otherwise', async () => {
      const plain = new pg.Client({ connectionString: url });
      await plain.connect();
      const server = (
        await plain.query<{ w: string }>(`select current_setting('max_parallel_workers_per_gather') as w`)
      ).rows[0]?.w;
      await plain.end();

      expect((await setting(2))?.workers).toBe('1');
      expect((await setting(1))?.workers).toBe('0');
      expect((await setting(8))?.workers).toBe(server);
      // Beside the search path, which a test schema sets the same way.
      expect(await setting(2, 'pg_catalog')).toEqual({ workers: '1', path: 'pg_catalog' });
    });
  },
);
