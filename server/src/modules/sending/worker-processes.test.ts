import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CarteiroProcess, startCarteiroProcess, until } from '../../../test/support/carteiro-process';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { ledgerEntries } from '../billing/billing.db';
import type { campaigns } from '../campaigns/campaigns.db';
import { startCampaignSend } from '../campaigns/start-campaign-send';
import { campaignStatus, createListWithContacts, createReadyCampaign, creditAccount } from './testing/send-fixtures';
import { type SmtpSink, startSmtpSink } from './testing/smtp-sink';

const BATCH = 10;
const CONCURRENCY = 2;
/** At most this many messages can be delivered twice per killed worker: the batches it had in flight. */
const IN_FLIGHT_WINDOW = BATCH * CONCURRENCY;
/** How long a worker process may take to start on a loaded machine. */
const WORKER_START_MS = 90_000;

/**
 * Real worker processes (`main.ts worker`, PostgreSQL only): one killed with SIGKILL mid-campaign and restarted;
 * three sharing one campaign.
 */
describe.skipIf(!DATABASE_KINDS.includes('postgres'))('worker processes on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sink: SmtpSink;
  const workers: CarteiroProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-workers-'));

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    sink = await startSmtpSink();
  });
  // Each test starts its own workers; those of a finished test would only compete for the box (and for claims).
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop('SIGKILL');
  });
  afterAll(async () => {
    await sink.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts `main.ts worker`; resolves once its sending engine runs (start-up is not part of what is timed). */
  async function startWorker(extraEnv: Record<string, string> = {}): Promise<CarteiroProcess> {
    const worker = startCarteiroProcess('worker', {
      NODE_ENV: 'test',
      DATABASE_URL: database.url as string,
      DATA_DIR: dataDir,
      AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
      MAIL_CATCHER: 'off',
      SMTP_URL: sink.url,
      SENDING_SMTP_URLS: sink.url,
      SENDING_BATCH_SIZE: String(BATCH),
      SENDING_CONCURRENCY: String(CONCURRENCY),
      SENDING_LEASE_SECONDS: '2',
      SENDING_POLL_MS: '50',
      PUBLIC_URL: 'https://app.carteiro.test',
      LOG_LEVEL: 'info',
      ...extraEnv,
    });
    workers.push(worker);
    // A start on a loaded machine (modules loaded, migrations checked) can take long: a bound, not a timing check.
    await worker.waitFor(/sending engine started/, WORKER_START_MS);
    return worker;
  }

  async function campaignWith(n: number, prefix: string, fields: Partial<typeof campaigns.$inferInsert> = {}) {
    const account = await createTestAccount(database.db);
    await creditAccount(database.db, account.id, 1_000_000);
    const emails = Array.from({ length: n }, (_, i) => `${prefix}${i}@destino.com.br`);
    const list = await createListWithContacts(database.db, account.id, emails, { cidade: 'Recife' });
    const id = await createReadyCampaign(database.db, account.id, { includeListIds: [list.listId], ...fields });
    return { id, emails, start: () => startCampaignSend(database.db, account.id, id, null) };
  }

  function received(prefix: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const m of sink.messages) if (m.to.startsWith(prefix)) counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
    return counts;
  }

  async function assertExact(id: string, n: number) {
    const [row] = await queryRows<{ sent: number; other: number }>(
      database.db,
      sql`select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status <> 'sent')::int as other
            from messages where campaign_id = ${id}`,
    );
    expect(row).toEqual({ sent: n, other: 0 });
    expect(await campaignStatus(database.db, id)).toMatchObject({ status: 'sent', sentCount: n, failedCount: 0 });
    const send = (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.campaignId, id))).filter(
      (e) => e.kind === 'send',
    );
    expect(send).toHaveLength(1);
    expect(send[0]?.emailCount).toBe(n);
  }

  it(
    'a worker killed with SIGKILL mid-campaign and restarted finishes it: duplicates ≤ the in-flight window, exact ledger',
    async () => {
      const n = 400;
      const { id, emails, start } = await campaignWith(n, 'kill');
      const first = await startWorker({ SENDING_RATE_PER_RELAY: '200' });
      await start();
      await until(() => received('kill').size >= 120, 15_000, 'the first deliveries');
      await first.stop('SIGKILL');
      const atKill = received('kill').size;
      expect(atKill).toBeLessThan(n);

      await startWorker();
      await until(
        async () => (await campaignStatus(database.db, id))?.status === 'sent',
        20_000,
        'the campaign to finish',
      );
      const counts = received('kill');
      expect([...counts.keys()].sort()).toEqual([...emails].sort());
      const duplicates = [...counts.values()].reduce((a, c) => a + c - 1, 0);
      expect(duplicates).toBeLessThanOrEqual(IN_FLIGHT_WINDOW);
      await assertExact(id, n);
    },
    45_000 + 3 * WORKER_START_MS,
  );

  it(
    'three workers share one campaign with no double send and exact counters',
    async () => {
      const n = 600;
      const { id, emails, start } = await campaignWith(n, 'tres');
      await Promise.all([0, 1, 2].map(() => startWorker({ SENDING_RATE_PER_RELAY: '100' })));
      await start();
      await until(
        async () => (await campaignStatus(database.db, id))?.status === 'sent',
        15_000,
        'the campaign to finish',
      );
      const counts = received('tres');
      expect([...counts.keys()].sort()).toEqual([...emails].sort());
      expect([...counts.values()].every((c) => c === 1)).toBe(true);
      const [workers] = await queryRows<{ n: number }>(
        database.db,
        // A claimer id is host:pid:lane, and each process runs several lanes: count the processes.
        sql`select count(distinct split_part(claimed_by, ':', 2))::int as n from messages where campaign_id = ${id}`,
      );
      expect(workers?.n).toBeGreaterThanOrEqual(2); // the campaign really was shared
      await assertExact(id, n);
    },
    45_000 + 3 * WORKER_START_MS,
  );

  it(
    'a healthy worker held back by its rate limit longer than the lease keeps its batches: nobody gets two copies',
    async () => {
      // One worker sends 2 messages a second with batches of 10: its second lane waits ~5 s on its own limiter,
      // more than twice the 2 s lease, while the other (no limit) worker sweeps leases at every poll. Renewed
      // leases keep each batch with its living worker, so no recipient is sent twice.
      const n = 200;
      const { id, emails, start } = await campaignWith(n, 'ritmo');
      await Promise.all([startWorker({ SENDING_RATE_PER_RELAY: '2' }), startWorker({ SENDING_RATE_PER_RELAY: '0' })]);
      await start();
      await until(
        async () => (await campaignStatus(database.db, id))?.status === 'sent',
        40_000,
        'the campaign to finish',
      );
      const counts = received('ritmo');
      expect([...counts.keys()].sort()).toEqual([...emails].sort());
      expect([...counts.entries()].filter(([, c]) => c > 1)).toEqual([]);
      const [workers] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(distinct claimed_by)::int as n from messages where campaign_id = ${id}`,
      );
      // More than one claimer delivered (each process runs several lanes, each with its own claimer id).
      expect(workers?.n).toBeGreaterThanOrEqual(2);
      await assertExact(id, n);
    },
    60_000 + 2 * WORKER_START_MS,
  );

  it(
    'an A/B campaign under three workers, one killed with SIGKILL mid-test: one variant per recipient, even split, exact ledger',
    async () => {
      const n = 300;
      const subjects = ['Assunto A', 'Assunto B', 'Assunto C'];
      const { id, emails, start } = await campaignWith(n, 'abk', {
        subject: subjects[0],
        abTest: {
          variants: [
            { subject: subjects[1] as string, fromName: null, template: null },
            { subject: subjects[2] as string, fromName: null, template: null },
          ],
          testPercent: 50,
          criterion: 'opens',
          waitHours: 1,
        },
      });
      const sharing = await Promise.all([0, 1, 2].map(() => startWorker({ SENDING_RATE_PER_RELAY: '40' })));
      await start();
      await until(() => received('abk').size >= 40, 15_000, 'the first test deliveries');
      await (sharing[0] as CarteiroProcess).stop('SIGKILL');
      expect(received('abk').size).toBeLessThan(150); // killed mid-test

      // The split was written with the snapshot: 150 test recipients, 50 per variant, the rest held.
      const split = await queryRows<{ variant: number | null; n: number }>(
        database.db,
        sql`select variant, count(*)::int as n from messages where campaign_id = ${id} group by variant order by variant`,
      );
      expect(split).toEqual([
        { variant: 0, n: 50 },
        { variant: 1, n: 50 },
        { variant: 2, n: 50 },
        { variant: null, n: 150 },
      ]);
      await until(() => received('abk').size >= 150, 20_000, 'the whole test share (after the lease)');
      expect(received('abk').size).toBe(150); // nothing held goes out before the decision
      // The wait is over now: the surviving workers decide (once) and send the winner to the rest.
      await database.db.execute(sql`update campaign_sends set ab_decide_at = now() where campaign_id = ${id}`);
      await until(
        async () => (await campaignStatus(database.db, id))?.status === 'sent',
        30_000,
        'the campaign to finish',
      );
      const rows = await queryRows<{ email: string; variant: number }>(
        database.db,
        sql`select email, variant from messages where campaign_id = ${id}`,
      );
      const [decision] = await queryRows<{ winner: number }>(
        database.db,
        sql`select ab_winner as winner from campaign_sends where campaign_id = ${id}`,
      );
      expect(rows.filter((r) => r.variant === decision?.winner)).toHaveLength(50 + 150);
      const variantOf = new Map(rows.map((r) => [r.email, Number(r.variant)]));
      const counts = received('abk');
      expect([...counts.keys()].sort()).toEqual([...emails].sort());
      const duplicates = [...counts.values()].reduce((a, c) => a + c - 1, 0);
      expect(duplicates).toBeLessThanOrEqual(IN_FLIGHT_WINDOW);
      // Every delivery (duplicates of the killed worker's in-flight batches included) is the recipient's variant.
      for (const m of sink.messages.filter((x) => x.to.startsWith('abk'))) {
        expect((await simpleParser(m.raw)).subject).toBe(subjects[variantOf.get(m.to) as number]);
      }
      await assertExact(id, n);
    },
    90_000 + 4 * WORKER_START_MS,
  );
});
