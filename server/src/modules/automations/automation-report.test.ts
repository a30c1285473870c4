import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/support/seeded-random';
import {
  createDatabaseBeforeMigration,
  createTestDatabase,
  DATABASE_KINDS,
  insertAccountRow,
} from '../../../test/support/test-database';
import { type Database, type Db, queryRows } from '../../db/database';
import { AUTOMATION_REPORT_FOLD_AT, automationReport } from './automation-report';
import { findAutomation } from './automations';
import { countedFromHistory } from './testing/report-from-history';

async function shownByReport(db: Db, accountId: string, automationId: string) {
  const r = await automationReport(db, accountId, automationId);
  return {
    enrolled: r.enrolled,
    active: r.active,
    completed: r.completed,
    exited: r.exited,
    steps: r.steps.map((s) => ({ stepId: s.stepId, sent: s.sent, opens: s.opens, clicks: s.clicks })),
  };
}

const KINDS = ['open', 'open', 'open', 'click', 'click', 'bounce', 'unsubscribe', 'complaint'] as const;

/** The statements the automations module and the tracking recorder run, as raw SQL over one account's rows. */
function writers(db: Db, accountId: string, streamId: string) {
  return {
    async automation(steps: number): Promise<string> {
      const [a] = await queryRows<{ id: string }>(
        db,
        sql`insert into automations (account_id, name, status, trigger_type, event_name, from_email)
            values (${accountId}, 'Série', 'active', 'api_event', 'compra', 'a@loja.com.br') returning id`,
      );
      await this.saveSteps(a?.id as string, steps);
      return a?.id as string;
    },
    /** automations.ts saveSteps: a kept position keeps its id, positions past the new length go. */
    async saveSteps(automationId: string, steps: number) {
      await db.execute(
        sql`insert into automation_steps (automation_id, position, wait_amount, wait_unit, template_id)
            select ${automationId}::uuid, p, 1, 'hours', gen_random_uuid() from generate_series(1, ${steps}::int) p
            on conflict (automation_id, position) do update set template_id = excluded.template_id`,
      );
      await db.execute(
        sql`delete from automation_steps where automation_id = ${automationId} and position > ${steps}::int`,
      );
    },
    async enroll(automationId: string, n: number, status = 'active') {
      await db.execute(
        sql`insert into automation_enrollments (automation_id, account_id, contact_id, status, next_run_at)
            select ${automationId}::uuid, ${accountId}::uuid, gen_random_uuid(), ${status}, now()
              from generate_series(1, ${n}::int)`,
      );
    },
    /** run-steps.ts: the runs claimed (no message yet), then their message ids (null: skipped), then the move. */
    async runStep(automationId: string, position: number, n: number, skipped: (i: number) => boolean) {
      const due = await queryRows<{ id: string; step_id: string }>(
        db,
        sql`select e.id, s.id as step_id from automation_enrollments e
              join automation_steps s on s.automation_id = e.automation_id and s.position = ${position}::int
             where e.automation_id = ${automationId} and e.status = 'active' and e.next_position = ${position}::int
             order by e.id limit ${n}::int`,
      );
      if (due.length === 0) return;
      const ids = `{${due.map((d) => d.id).join(',')}}`;
      const stepId = due[0]?.step_id as string;
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`insert into automation_step_runs (enrollment_id, step_id, automation_id)
              select unnest(${ids}::uuid[]), ${stepId}::uuid, ${automationId}::uuid on conflict do nothing`,
        );
        const messages = await queryRows<{ id: number }>(
          tx as unknown as Db,
          sql`insert into messages (campaign_id, account_id, email, token)
              select ${streamId}::uuid, ${accountId}::uuid, 'x@y.com', md5(random()::text) from unnest(${ids}::uuid[])
              returning id`,
        );
        const messageIds = due.map((_, i) => (skipped(i) ? 'NULL' : String(messages[i]?.id))).join(',');
        await tx.execute(
          sql`update automation_step_runs r set message_id = x.message_id
                from unnest(${ids}::uuid[], ${`{${messageIds}}`}::bigint[]) as x(enrollment_id, message_id)
               where r.enrollment_id = x.enrollment_id and r.step_id = ${stepId}::uuid`,
        );
        await tx.execute(
          sql`update automation_enrollments set next_position = ${position + 1}::int,
                     status = case when ${position}::int >= (select max(position) from automation_steps
                                                                where automation_id = ${automationId}) then 'completed' else status end
               where id = any(${ids}::uuid[])`,
        );
      });
    },
    /** One insert statement of events, as the tracking recorder's batch (any kinds, repeats, machine ones). */
    async events(rows: Array<{ messageId: number; kind: string; machine: boolean }>) {
      if (rows.length === 0) return;
      await db.execute(
        sql`insert into message_events (message_id, campaign_id, account_id, kind, machine)
            select m, ${streamId}::uuid, ${accountId}::uuid, k, mc
              from unnest(${`{${rows.map((r) => r.messageId).join(',')}}`}::bigint[],
                          ${`{${rows.map((r) => r.kind).join(',')}}`}::text[],
                          ${`{${rows.map((r) => r.machine).join(',')}}`}::boolean[]) as x(m, k, mc)`,
      );
    },
    async runMessageIds(automationId: string): Promise<number[]> {
      const rows = await queryRows<{ message_id: number }>(
        db,
        sql`select message_id from automation_step_runs
             where automation_id = ${automationId} and message_id is not null order by message_id`,
      );
      return rows.map((r) => Number(r.message_id));
    },
    async deltaRows(automationId: string): Promise<number> {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from automation_report_deltas where automation_id = ${automationId}`,
      );
      return Number(row?.n);
    },
  };
}

async function streamCampaign(db: Db, accountId: string): Promise<string> {
  const [c] = await queryRows<{ id: string }>(
    db,
    sql`insert into campaigns (uuid, created_by, name, kind, status)
        values (gen_random_uuid(), ${accountId}, 'stream', 'transactional', 'sending') returning id`,
  );
  return c?.id as string;
}

describe.each(DATABASE_KINDS)('the automation report on %s', (kind) => {
  let database: Database;
  let db: Db;
  let accountId: string;
  let w: ReturnType<typeof writers>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
    accountId = await insertAccountRow(db);
    w = writers(db, accountId, await streamCampaign(db, accountId));
  });
  afterAll(async () => {
    await database.close();
  });

  const expectAsCounted = async (automationId: string) => {
    const expected = await countedFromHistory(db, automationId);
    expect(await shownByReport(db, accountId, automationId)).toEqual(expected);
    // The automations page reads the same counters.
    const view = await findAutomation(db, accountId, automationId);
    expect({ enrolled: view.enrolled, active: view.active }).toEqual({
      enrolled: expected.enrolled,
      active: expected.active,
    });
    return expected;
  };

  it('says what the history says after generated enrollments, step runs, events, exits, edits and deletions', async () => {
    const rnd = seededRandom(2023);
    const a = await w.automation(3);
    const other = await w.automation(2); // its counts must never move a's
    await w.enroll(other, 5);
    await w.runStep(other, 1, 5, () => false);
    const otherCounts = await expectAsCounted(other);
    for (let round = 0; round < 12; round++) {
      await w.enroll(a, rnd.int(1, 15));
      if (rnd.chance(0.2)) await w.enroll(a, rnd.int(1, 3), rnd.pick(['completed', 'exited']));
      for (const position of [1, 2, 3]) {
        await w.runStep(a, position, rnd.int(0, 12), () => rnd.chance(0.15));
      }
      // Events in a few statements: repeats of one message in one statement and across statements, opens then
      // clicks, clicks alone, machine opens and clicks, other kinds, and messages that are no run's.
      const sentIds = await w.runMessageIds(a);
      for (let batch = 0; batch < 3; batch++) {
        const rows = Array.from({ length: rnd.int(0, 25) }, () => ({
          messageId: rnd.chance(0.1) ? 900_000_000 + rnd.int(0, 5) : rnd.pick(sentIds),
          kind: rnd.pick(KINDS),
          machine: rnd.chance(0.25),
        }));
        await w.events(rows.filter((r) => r.messageId !== undefined));
      }
      // Exits and completions (the tick's and the runner's updates), some enrollments back to active.
      await db.execute(
        sql`update automation_enrollments set status = case when random() < 0.5 then 'exited' else 'completed' end
             where id in (select id from automation_enrollments where automation_id = ${a} and status = 'active'
                           order by random() limit ${rnd.int(0, 3)}::int)`,
      );
      if (rnd.chance(0.2)) {
        await db.execute(
          sql`update automation_enrollments set status = 'active'
               where id in (select id from automation_enrollments where automation_id = ${a} and status <> 'active'
                             limit 2)`,
        );
      }
      if (round === 5) {
        // Steps edited position by position: step 3 goes (its runs with it), then comes back as a new step.
        await w.saveSteps(a, 2);
        await expectAsCounted(a);
        await w.saveSteps(a, 3);
      }
      if (round === 8) {
        // Enrollments deleted with their runs (as a cascade would), and runs deleted alone.
        await db.execute(
          sql`delete from automation_enrollments where id in (
                select enrollment_id from automation_step_runs where automation_id = ${a} and opened limit 3)`,
        );
        await db.execute(
          sql`delete from automation_step_runs where (enrollment_id, step_id) in (
                select enrollment_id, step_id from automation_step_runs where automation_id = ${a} and clicked limit 2)`,
        );
      }
      await expectAsCounted(a);
    }
    const final = await expectAsCounted(a);
    expect(final.steps.map((s) => s.sent).reduce((x, y) => x + y, 0)).toBeGreaterThan(20);
    expect(final.steps.some((s) => s.opens > 0 && s.clicks > 0)).toBe(true);
    expect(await expectAsCounted(other)).toEqual(otherCounts);
  });

  it('counts the events a message had before its run named it', async () => {
    const a = await w.automation(1);
    await w.enroll(a, 2);
    const [taken] = await queryRows<{ id: number }>(db, sql`select nextval('messages_id_seq') as id`);
    // Events naming the message ids the next step batch is about to write (no writer does this today).
    const first = Number(taken?.id) + 1;
    await w.events([
      { messageId: first, kind: 'open', machine: false },
      { messageId: first, kind: 'click', machine: true },
      { messageId: first + 1, kind: 'click', machine: false },
    ]);
    await w.runStep(a, 1, 2, () => false);
    expect((await expectAsCounted(a)).steps).toEqual([expect.objectContaining({ sent: 2, opens: 1, clicks: 1 })]);
  });

  it('folds its rows past the threshold without changing a number, and goes with its automation', async () => {
    const a = await w.automation(2);
    for (let i = 0; i < AUTOMATION_REPORT_FOLD_AT + 5; i++) await w.enroll(a, 1);
    for (let batch = 0; batch < 4; batch++) await w.runStep(a, 1, 10, (i) => i % 7 === 0);
    const ids = await w.runMessageIds(a);
    for (const id of ids) await w.events([{ messageId: id, kind: 'open', machine: false }]);
    expect(await w.deltaRows(a)).toBeGreaterThan(AUTOMATION_REPORT_FOLD_AT);
    const before = await expectAsCounted(a);
    expect(await w.deltaRows(a)).toBeLessThanOrEqual(3); // one row for the enrollments, one per step with runs
    expect(await expectAsCounted(a)).toEqual(before);
    await db.execute(sql`delete from automations where id = ${a}`);
    expect(await w.deltaRows(a)).toBe(0);
  });

  // Concurrency needs connections of its own: PostgreSQL only (PGlite is one connection).
  if (kind === 'postgres') {
    it('counts an open once when batches race on the same messages', async () => {
      const pool = database.pool;
      if (!pool) throw new Error('no pool');
      const a = await w.automation(2);
      await w.enroll(a, 60);
      await w.runStep(a, 1, 60, (i) => i % 9 === 0);
      await w.runStep(a, 2, 60, () => false);
      const ids = await w.runMessageIds(a);
      const streamId = (
        await queryRows<{ id: string }>(db, sql`select id from campaigns where kind = 'transactional'`)
      )[0]?.id as string;
      const insert = (messageIds: number[], kinds: string[]) =>
        pool.query(
          `insert into message_events (message_id, campaign_id, account_id, kind, machine)
           select m, $1, $2, k, false from unnest($3::bigint[], $4::text[]) as x(m, k)`,
          [streamId, accountId, messageIds, kinds],
        );
      // One writer's batch holds its runs while another's waits for them, then finds them counted.
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(
          `insert into message_events (message_id, campaign_id, account_id, kind) select m, $1, $2, 'click'
             from unnest($3::bigint[]) m`,
          [streamId, accountId, ids],
        );
        const waiting = insert(
          ids,
          ids.map(() => 'click'),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
        await client.query('commit');
        await waiting;
      } finally {
        client.release();
      }
      const rnd = seededRandom(7);
      for (let round = 0; round < 15; round++) {
        // Four writers at once, each the same messages in its own order, opens and clicks mixed.
        await Promise.all(
          Array.from({ length: 4 }, () => {
            const picked = ids.filter(() => rnd.chance(0.3)).sort(() => rnd.next() - 0.5);
            return insert(
              picked,
              picked.map(() => rnd.pick(['open', 'click'])),
            );
          }),
        );
      }
      const counted = await expectAsCounted(a);
      expect(counted.steps.every((s) => s.clicks === s.sent)).toBe(true);
    });

    it('an event can name a message only once its run is committed with it', async () => {
      const pool = database.pool;
      if (!pool) throw new Error('no pool');
      const a = await w.automation(1);
      await w.enroll(a, 1);
      const [due] = await queryRows<{ id: string; step_id: string; stream: string }>(
        db,
        sql`select e.id, s.id as step_id, (select id from campaigns where kind = 'transactional') as stream
              from automation_enrollments e join automation_steps s on s.automation_id = e.automation_id
             where e.automation_id = ${a}`,
      );
      const step = await pool.connect();
      // The tracking recorder's insert: the message found by its token in the same statement.
      const recordOpen = (token: string) =>
        pool.query(
          `insert into message_events (message_id, campaign_id, account_id, kind)
           select m.id, m.campaign_id, m.account_id, 'open' from messages m where m.token = $1`,
          [token],
        );
      try {
        await step.query('begin');
        await step.query(
          `insert into automation_step_runs (enrollment_id, step_id, automation_id) values ($1, $2, $3)`,
          [due?.id, due?.step_id, a],
        );
        const message = await step.query(
          `insert into messages (campaign_id, account_id, email, token) values ($1, $2, 'x@y.com', 'tok-race') returning id`,
          [due?.stream, accountId],
        );
        await step.query(`update automation_step_runs set message_id = $1 where enrollment_id = $2`, [
          message.rows[0].id,
          due?.id,
        ]);
        expect((await recordOpen('tok-race')).rowCount).toBe(0); // the message is not there yet for anyone else
        await step.query('commit');
      } finally {
        step.release();
      }
      expect((await recordOpen('tok-race')).rowCount).toBe(1);
      expect((await expectAsCounted(a)).steps).toEqual([expect.objectContaining({ sent: 1, opens: 1, clicks: 0 })]);
    });
  }
});

describe.each(DATABASE_KINDS)('the automation report migration on %s', (kind) => {
  it('counts the automations as they were before it', async () => {
    const database = await createDatabaseBeforeMigration(kind, '_automation_report_counts');
    try {
      const db = database.db;
      const accountId = await insertAccountRow(db);
      const streamId = await streamCampaign(db, accountId);
      const w = writers(db, accountId, streamId);
      const a = await w.automation(2);
      await w.enroll(a, 30);
      await w.enroll(a, 4, 'exited');
      await w.runStep(a, 1, 30, (i) => i % 5 === 0);
      await w.runStep(a, 2, 12, () => false);
      const ids = await w.runMessageIds(a);
      await w.events(
        ids.flatMap((id, i) => [
          { messageId: id, kind: 'open', machine: i % 3 === 0 },
          { messageId: id, kind: i % 4 === 0 ? 'click' : 'open', machine: false },
          { messageId: id, kind: 'bounce', machine: false },
        ]),
      );
      const expected = await countedFromHistory(db, a);
      await database.migrate();
      expect(await shownByReport(db, accountId, a)).toEqual(expected);
      expect(expected.steps[0]?.opens).toBeGreaterThan(0);
      expect(expected.steps[0]?.clicks).toBeGreaterThan(0);
      // The triggers keep it so from here.
      await w.events(ids.map((id) => ({ messageId: id, kind: 'click', machine: false })));
      expect(await shownByReport(db, accountId, a)).toEqual(await countedFromHistory(db, a));
    } finally {
      await database.close();
    }
  }, 120_000);
});
