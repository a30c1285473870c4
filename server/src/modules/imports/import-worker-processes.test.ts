import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CarteiroProcess,
  freePort,
  listeningUrl,
  startCarteiroProcess,
  until,
} from '../../../test/support/carteiro-process';
import { csvOf } from '../../../test/support/imports';
import { cookiesFrom } from '../../../test/support/sign-in';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { type SmtpSink, startSmtpSink } from '../sending/testing/smtp-sink';

const ROWS = 60_000;

/** Every file under `dir` whose name ends in .csv (none may hold an upload). */
function csvFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith('.csv'));
}

/**
 * The documented scale-out: an `api` process and `worker` processes on PostgreSQL, each with its own DATA_DIR (as
 * on separate machines: no worker can read the API's disk). The upload must reach the worker through the
 * database; a missing file fails the import without hurting the worker; a worker killed mid-import is replaced
 * and the import ends with exact counters.
 */
describe.skipIf(!DATABASE_KINDS.includes('postgres'))('imports across api and worker processes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sink: SmtpSink;
  let api: CarteiroProcess;
  let apiDataDir: string;
  let base: string;
  let headers: Record<string, string>;
  const processes: CarteiroProcess[] = [];
  const dataDirs: string[] = [];

  const env = (dataDir: string, extra: Record<string, string> = {}) => ({
    NODE_ENV: 'test',
    DATABASE_URL: database.url as string,
    DATA_DIR: dataDir,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    MAIL_CATCHER: 'off',
    SMTP_URL: sink.url,
    BOUNCE_SMTP_PORT: '0',
    LOG_LEVEL: 'info',
    ...extra,
  });
  const newDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-role-'));
    dataDirs.push(dir);
    return dir;
  };
  const startWorker = async () => {
    // Its own data directory, and the API's hidden from it: it reaches the upload only through the database.
    const worker = startCarteiroProcess('worker', env(newDataDir()), { hiddenDirs: [apiDataDir] });
    processes.push(worker);
    await worker.waitFor(/sending engine started/, 90_000);
    return worker;
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    sink = await startSmtpSink();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    apiDataDir = newDataDir();
    api = startCarteiroProcess('api', env(apiDataDir, { HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: base }));
    processes.push(api);
    await listeningUrl(api, 90_000);
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dona@padaria.com.br', password: 'senha-forte-123', name: 'Dona da Padaria' }),
    });
    expect(signUp.status).toBe(200);
    headers = { origin: base, cookie: cookiesFrom(signUp.headers.getSetCookie()) };
    expect((await fetch(`${base}/api/session`, { headers })).status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    for (const process of processes) await process.stop('SIGKILL');
    await sink?.close();
    await database?.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function upload(content: string) {
    const res = await fetch(`${base}/api/imports`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv', 'x-file-name': 'contatos.csv' },
      body: content,
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { importId: string; suggestedMapping: Record<string, string> };
  }
  async function start(up: { importId: string; suggestedMapping: Record<string, string> }) {
    const res = await fetch(`${base}/api/imports/${up.importId}/start`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        mapping: up.suggestedMapping,
        legalBasis: 'consent',
        consentSource: 'planilha',
        updateExisting: false,
      }),
    });
    expect(res.status).toBe(202);
  }
  async function progress(id: string) {
    return (await (await fetch(`${base}/api/imports/${id}`, { headers })).json()) as Record<string, unknown>;
  }
  const finished = (id: string, ms = 120_000) =>
    until(
      async () => {
        const p = await progress(id);
        return p.status === 'done' || p.status === 'failed' ? p : null;
      },
      ms,
      `import ${id} to end`,
    );

  it('a worker with its own data directory imports what the api received; nothing lands on either disk', async () => {
    const worker = await startWorker();
    const file = csvOf(3_000, 'a');
    const up = await upload(file.content);
    await start(up);
    expect(await finished(up.importId)).toMatchObject({
      status: 'done',
      processedRows: 3_000,
      inserted: file.valid,
      skippedInvalid: file.invalid,
      skippedDuplicate: file.duplicate,
    });
    for (const dir of dataDirs) expect(csvFilesUnder(dir)).toEqual([]);
    expect(worker.child.exitCode).toBeNull();
  }, 240_000);

  it('a file that is gone fails the import with a pt-BR reason; the worker lives on and imports the next', async () => {
    const up = await upload(csvOf(100, 'b').content);
    await queryRows(database.db, sql`delete from contact_import_files where import_id = ${up.importId}`);
    await start(up);
    expect(await finished(up.importId)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^O arquivo desta importação não está mais disponível/),
    });
    const next = await upload(csvOf(100, 'c').content);
    await start(next);
    expect((await finished(next.importId)).status).toBe('done');
    expect(processes.filter((p) => p.child.exitCode !== null && p.child.signalCode === null)).toEqual([]);
  }, 240_000);

  it('a worker killed mid-import is replaced at once; the import ends with exact counters', async () => {
    const file = csvOf(ROWS, 'kill');
    const up = await upload(file.content);
    await start(up);
    // Kill every worker as soon as a first batch is recorded (the import is running, unfinished).
    await until(
      async () => {
        const [row] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from contact_import_batches where import_id = ${up.importId}`,
        );
        return Number(row?.n) >= 1;
      },
      120_000,
      'a first batch',
    );
    for (const process of processes.filter((p) => p !== api)) await process.stop('SIGKILL');
    expect((await progress(up.importId)).status).toBe('running');
    await startWorker();
    const done = await finished(up.importId, 180_000);
    expect(done).toMatchObject({
      status: 'done',
      processedRows: ROWS,
      inserted: file.valid,
      unchanged: 0,
      skippedInvalid: file.invalid,
      skippedDuplicate: file.duplicate,
      rejectedCount: file.invalid + file.duplicate,
    });
    const [contacts] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from contacts where email like ${'%-kill@destino.com.br'}`,
    );
    expect(contacts?.n).toBe(file.valid);
    const [left] = await queryRows<{ files: number; batches: number }>(
      database.db,
      sql`select (select count(*) from contact_import_files where import_id = ${up.importId} and kind = 'upload')::int as files,
                 (select count(*) from contact_import_batches where import_id = ${up.importId})::int as batches`,
    );
    expect(left).toEqual({ files: 0, batches: 0 });
  }, 420_000);
});
