import pg from 'pg';

/** The PostgreSQL server the benchmarks create their databases on (BENCH_DATABASE_URL). */
export const BENCH_PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The URL of database `name` on that server. */
export function benchDatabaseUrl(name: string): string {
  const url = new URL(BENCH_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the server's maintenance database (create or drop a bench database). */
export async function adminStatement(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_PG_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
