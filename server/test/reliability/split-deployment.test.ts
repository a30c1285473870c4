import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database';
import { ledgerEntries } from '../../src/modules/billing/billing.db';
import { startCampaignSend } from '../../src/modules/campaigns/start-campaign-send';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
} from '../../src/modules/sending/testing/send-fixtures';
import { type CarteiroProcess, freePort, listeningUrl, startCarteiroProcess, until } from '../support/carteiro-process';
import { csvOf } from '../support/imports';
import { cookiesFrom } from '../support/sign-in';
import { createTestAccount } from '../support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../support/test-database';
import { type CountingSmtpSink, startCountingSmtpSink } from './counting-smtp-sink';

/**
 * The size of the run. The default keeps the file CI-friendly; the probe's size runs by hand with
 * `RELIABILITY_RECIPIENTS=40000` (docs/threat-model.md, "The reliability suite").
 */
const RECIPIENTS = Number(process.env.RELIABILITY_RECIPIENTS ?? 600);
const IMPORT_ROWS = Number(process.env.RELIABILITY_IMPORT_ROWS ?? Math.max(30_000, RECIPIENTS));
/** Per relay and worker process: binding at every size, so the campaign is still sending when a worker dies. */
const RATE_PER_RELAY = Number(process.env.RELIABILITY_RATE_PER_RELAY ?? Math.max(40, Math.ceil(RECIPIENTS / 20)));
const BATCH = 10;
const CONCURRENCY = 2;
/** The documented bound (docs/config.md, SENDING_BATCH_SIZE): the batches a killed worker had in flight. */
const DUPLICATES_PER_KILLED_WORKER = BATCH * CONCURRENCY;
const START_MS = 90_000;
/** Long enough for a loaded box to renew in time, short enough that a dead worker's batches come back quickly. */
const LEASE_SECONDS = 3;

/**
 * Recipients never delivered and deliveries to nobody on the list (at most 20 of each: a failure at 40,000
 * recipients must print a readable diff, not two whole lists).
 */
function missingOrStray(delivered: Map<string, number>, emails: string[]) {
  const expected = new Set(emails);
  return {
    missing: emails.filter((email) => !delivered.has(email)).slice(0, 20),
    stray: [...delivered.keys()].filter((email) => !expected.has(email)).slice(0, 20),
  };
}

/**
 * The documented split deployment in one run: an `api` process and two `worker` processes (real `main.ts`
 * processes, each with its own data directory, as on separate machines) on PostgreSQL, relaying to a loopback SMTP
 * sink under a per-relay rate limit. First a campaign with nobody dying (no duplicate at all); then a campaign and a
 * CSV import at once while the worker holding the import — and campaign batches — is killed with SIGKILL and
 * replaced. Nothing is lost, duplicates stay within the bound and only among the killed worker's in-flight batches,
 * each campaign is charged once for exactly its recipients, and the import ends with exact counters.
 * PostgreSQL only: several processes share the database (PGlite is one process's embedded database).
 */
describe.skipIf(!DATABASE_KINDS.includes('postgres'))('the api + 2 workers split on PostgreSQL (reliability)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sink: CountingSmtpSink;
  let base: string;
  let headers: Record<string, string>;
  const processes: CarteiroProcess[] = [];
  const dataDirs: string[] = [];
  let workerCount = 0;

  const newDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-reliability-'));
    dataDirs.push(dir);
    return dir;
  };
  /** Each process names itself to PostgreSQL, so the test can see which worker runs the import. */
  const databaseUrl = (name: string) => {
    const url = new URL(database.url as string);
    url.searchParams.set('application_name', name);
    return url.toString();
  };
  const env = (name: string, extra: Record<string, string> = {}) => ({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl(name),
    DATA_DIR: newDataDir(),
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    MAIL_CATCHER: 'off',
    SMTP_URL: sink.url,
    BOUNCE_SMTP_PORT: '0',
    LOG_LEVEL: 'info',
    ...extra,
  });
  async function startWorker(): Promise<{ process: CarteiroProcess; name: string }> {
    const name = `reliability-worker-${++workerCount}`;
    const worker = startCarteiroProcess(
      'worker',
      env(name, {
        SENDING_SMTP_URLS: sink.url,
        SENDING_RATE_PER_RELAY: String(RATE_PER_RELAY),
        SENDING_BATCH_SIZE: String(BATCH),
        SENDING_CONCURRENCY: String(CONCURRENCY),
        SENDING_LEASE_SECONDS: String(LEASE_SECONDS),
        SENDING_POLL_MS: '50',
        PUBLIC_URL: 'https://app.carteiro.test',
      }),
    );
    processes.push(worker);
    await worker.waitFor(/sending engine started/, START_MS);
    return { process: worker, name };
  }

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    sink = await startCountingSmtpSink();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const api = startCarteiroProcess(
      'api',
      env('reliability-api', { HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: base }),
    );
    processes.push(api);
    await Promise.all([listeningUrl(api, START_MS), startWorker(), startWorker()]);
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dona@padaria.com.br', password: 'senha-forte-123', name: 'Dona da Padaria' }),
    });
    expect(signUp.status).toBe(200);
    headers = { origin: base, cookie: cookiesFrom(signUp.headers.getSetCookie()) };
  }, 3 * START_MS);

  afterAll(async () => {
    for (const process of processes) await process.stop('SIGKILL');
    await sink?.close();
    await database?.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function campaignOf(n: number, prefix: string) {
    const account = await createTestAccount(database.db);
    await creditAccount(database.db, account.id, 100 * n + 1_000_000);
    const emails = Array.from({ length: n }, (_, i) => `${prefix}${i}@destino.com.br`);
    const list = await createListWithContacts(database.db, account.id, emails, { cidade: 'Recife' });
    const id = await createReadyCampaign(database.db, account.id, { includeListIds: [list.listId] });
    return { id, emails, start: () => startCampaignSend(database.db, account.id, id, null) };
  }
  const isSent = async (id: string) => (await campaignStatus(database.db, id))?.status === 'sent';

  /** Every message sent, the campaign's counters exact, and one charge covering exactly its recipients. */
  async function expectDeliveredAndChargedOnce(id: string, n: number) {
    const [row] = await queryRows<{ sent: number; other: number }>(
      database.db,
      sql`select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status <> 'sent')::int as other
            from messages where campaign_id = ${id}`,
    );
    expect(row).toEqual({ sent: n, other: 0 });
    expect(await campaignStatus(database.db, id)).toMatchObject({ status: 'sent', sentCount: n, failedCount: 0 });
    const charges = (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.campaignId, id))).filter(
      (e) => e.kind === 'send',
    );
    expect(charges).toHaveLength(1);
    expect(charges[0]?.emailCount).toBe(n);
  }

  async function upload(content: string) {
    const res = await fetch(`${base}/api/imports`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv', 'x-file-name': 'contatos.csv' },
      body: content,
    });
    expect(res.status).toBe(201);
    const up = (await res.json()) as { importId: string; suggestedMapping: Record<string, string> };
    return {
      id: up.importId,
      start: async () => {
        const started = await fetch(`${base}/api/imports/${up.importId}/start`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            mapping: up.suggestedMapping,
            legalBasis: 'consent',
            consentSource: 'planilha',
            updateExisting: false,
          }),
        });
        expect(started.status).toBe(202);
      },
    };
  }
  const importProgress = async (id: string) =>
    (await (await fetch(`${base}/api/imports/${id}`, { headers })).json()) as Record<string, unknown>;

  /**
   * The workers whose database sessions show a query on the import's tables right now (a session shows its last
   * query; the sending engine soon reuses the importer's, so a sighting is brief — callers accumulate them).
   */
  async function workersTouchingImports(): Promise<string[]> {
    const rows = await queryRows<{ name: string }>(
      database.db,
      sql`select distinct application_name as name from pg_stat_activity
           where datname = current_database() and application_name like 'reliability-worker-%'
             and query ~ 'contact_import'`,
    );
    return rows.map((row) => row.name);
  }

  /** The recipients in the batches `pid` holds right now, not yet recorded (what it may have sent already). */
  async function inFlightRecipients(campaignId: string, pid: number): Promise<string[]> {
    const rows = await queryRows<{ email: string }>(
      database.db,
      sql`select m.email from message_batches b
            join messages m on m.campaign_id = b.campaign_id and m.id between b.first_message_id and b.last_message_id
           where b.campaign_id = ${campaignId} and b.status = 'sending' and m.status = 'queued'
             and split_part(b.claimed_by, ':', 2) = ${String(pid)}`,
    );
    return rows.map((r) => r.email.toLowerCase());
  }

  it(
    'kills the worker running an import and delivering a campaign: nothing lost, duplicates only from its in-flight batches, one charge each, exact import',
    async () => {
      const scale = Math.max(1, RECIPIENTS / 600);
      const [first, second] = processes.slice(1, 3) as [CarteiroProcess, CarteiroProcess];
      const workers = new Map([
        ['reliability-worker-1', first],
        ['reliability-worker-2', second],
      ]);

      // 1. Nobody dies: both workers share the campaign and nobody gets two copies.
      const calm = await campaignOf(Math.ceil(RECIPIENTS / 2), 'calma');
      await calm.start();
      await until(() => isSent(calm.id), 60_000 * scale, 'the calm campaign to finish', 100);
      const calmCounts = sink.deliveredTo('calma');
      expect(missingOrStray(calmCounts, calm.emails)).toEqual({ missing: [], stray: [] });
      expect([...calmCounts.entries()].filter(([, c]) => c > 1)).toEqual([]);
      const [sharing] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(distinct split_part(claimed_by, ':', 2))::int as n from messages where campaign_id = ${calm.id}`,
      );
      expect(sharing?.n).toBe(2);
      await expectDeliveredAndChargedOnce(calm.id, calm.emails.length);

      // 2. A campaign and an import at once; the importing worker dies while it also holds campaign batches.
      const storm = await campaignOf(RECIPIENTS, 'tempestade');
      const file = csvOf(IMPORT_ROWS, 'kill');
      const imported = await upload(file.content);
      // The campaign first: its snapshot (seconds at 40,000 recipients) must not outlast the whole import.
      await storm.start();
      await imported.start();
      const importing = new Set<string>();
      const victimName = await until(
        async () => {
          for (const name of await workersTouchingImports()) importing.add(name);
          const [state] = await queryRows<{ status: string; batches: number; sent: boolean }>(
            database.db,
            sql`select i.status,
                       (select count(*) from contact_import_batches b where b.import_id = i.id)::int as batches,
                       (select status = 'sent' from campaigns where id = ${storm.id}) as sent
                  from contact_imports i where i.id = ${imported.id}`,
          );
          // Too small a run for this box: fail now with the reason rather than at the timeout.
          if (state?.status === 'done' || state?.status === 'failed' || state?.sent) {
            throw new Error(
              `the import or the campaign ended before the kill (raise RELIABILITY_IMPORT_ROWS): ${JSON.stringify(state)}`,
            );
          }
          if (importing.size > 1) throw new Error(`two workers ran the import at once: ${[...importing].join(', ')}`);
          const [name] = importing;
          const pid = name ? workers.get(name)?.child.pid : undefined;
          if (!name || !pid || Number(state?.batches) < 1) return null;
          return (await inFlightRecipients(storm.id, pid)).length > 0 ? name : null;
        },
        60_000 * scale,
        'the importing worker to be mid-import and mid-send',
        20,
      );
      const victim = workers.get(victimName) as CarteiroProcess;
      const victimPid = victim.child.pid as number;
      await victim.stop('SIGKILL');
      // Read at once: the lease (LEASE_SECONDS) keeps these batches the dead worker's until it expires.
      const mayRepeat = new Set(await inFlightRecipients(storm.id, victimPid));
      expect(victim.child.signalCode).toBe('SIGKILL');
      expect(mayRepeat.size).toBeGreaterThan(0);
      expect(await isSent(storm.id)).toBe(false);
      expect((await importProgress(imported.id)).status).toBe('running');

      // The survivor carries on; a replacement joins (the operator's supervisor restarting the dead process).
      await startWorker();
      await until(() => isSent(storm.id), 120_000 * scale, 'the campaign to finish', 100);
      const done = await until(
        async () => {
          const progress = await importProgress(imported.id);
          return progress.status === 'done' || progress.status === 'failed' ? progress : null;
        },
        120_000 * scale,
        'the import to end',
        200,
      );

      const counts = sink.deliveredTo('tempestade');
      expect(missingOrStray(counts, storm.emails)).toEqual({ missing: [], stray: [] }); // none lost
      const repeated = [...counts.entries()].filter(([, c]) => c > 1);
      // The figures of the run (the by-hand size quotes them in docs/threat-model.md).
      console.info(
        `reliability: ${RECIPIENTS} + ${calm.emails.length} recipients, ${IMPORT_ROWS} import rows, ` +
          `${mayRepeat.size} in flight at the kill, ${repeated.length} delivered twice`,
      );
      expect(repeated.filter(([to, c]) => c !== 2 || !mayRepeat.has(to))).toEqual([]);
      expect(repeated.length).toBeLessThanOrEqual(DUPLICATES_PER_KILLED_WORKER);
      await expectDeliveredAndChargedOnce(storm.id, storm.emails.length);
      // The calm campaign stayed untouched by the kill.
      expect([...sink.deliveredTo('calma').values()].every((c) => c === 1)).toBe(true);

      expect(done).toMatchObject({
        status: 'done',
        processedRows: IMPORT_ROWS,
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
      // Only the victim died.
      const ended = processes.flatMap((p, i) => (p.child.exitCode !== null || p.child.signalCode !== null ? [i] : []));
      expect(ended).toEqual([processes.indexOf(victim)]);
    },
    (60_000 + 3 * START_MS) * Math.max(1, RECIPIENTS / 600),
  );
});
