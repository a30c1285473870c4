/**
 * The ten-million simulation (by hand, not part of `npm run bench`): one account with 10M contacts and ~100M
 * message events on the local PostgreSQL, then what such an account does at that size, each step timed through
 * the real code. Two phases, so the long generation runs once:
 *
 *   npx tsx bench/ten-million.ts seed                     # prints the database name (kept)
 *   BENCH_REUSE_DB=<name> npx tsx bench/ten-million.ts measure
 *   BENCH_REUSE_DB=<name> npx tsx bench/ten-million.ts drop
 *   BENCH_REUSE_DB=<name> npx tsx bench/ten-million.ts check     # a small seed only: backfills = triggers?
 *
 * A seed with BENCH_EVENTS=0 stops short of the events (its backfills run over none); then
 * `BENCH_REUSE_DB=<name> BENCH_EVENTS=… npx tsx bench/ten-million.ts events` loads them later — so the event count
 * can be chosen once the audience and the snapshot are in (the rollups are emptied first, then rebuilt).
 *
 * seed: migrates a new database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), generates
 * BENCH_CONTACTS (10M) contacts with custom fields on one list, BENCH_CAMPAIGNS (20) sent campaigns a week apart,
 * then **the snapshot of a campaign to the whole list through startCampaignSend (timed)**; its messages are then
 * marked delivered (the engine's outcome, simulated in SQL) and BENCH_EVENTS (100M) message events are written —
 * BENCH_BIG_EVENTS (10 %) on that campaign's messages, the rest spread over the older campaigns and the contacts
 * (≈ 65 % opens, a fifth machine, 30 % clicks, 5 % unsubscribes) with computed ids (contact ids are md5 of their
 * number, so no event needs a join). Secondary indexes of contacts and message_events are dropped during the
 * load and rebuilt from their own definitions; message_events is UNLOGGED during the load (and stays so unless
 * BENCH_EVENTS_LOGGED=1: the measurements only read it) with every trigger off — the rollups (first opens,
 * segment engagement with its delivered fact and ever_opened, report rollup) are then built by their migrations'
 * own backfill statements (`backfills()`), each timed, and `check` shows on a small seed that they equal what the
 * product's writers build (the triggers, and foldEngagement for the delivered facts). Contacts are inserted with
 * their own statement triggers on (the typed custom fields of 0050 written as an import writes them). Every step
 * prints its time.
 *
 * For a run that measures the report rollup alone: BENCH_BACKFILLS=0045 (only those migrations' backfills),
 * BENCH_EVENT_INDEXES=message_events_campaign_kind_idx (only those indexes rebuilt) and BENCH_REPORT_ROLLUP_BY=campaign
 * (0045's statement once per campaign, each batch's time and temp bytes printed).
 *
 * measure: the big campaign's report and its recipients CSV export (streamed to /dev/null: time to the first
 * byte, total, rows/s, the process's peak RSS), segment counts (bench/segments.ts, the same segments), the
 * suppression check of one engine batch with 1M suppressions on the account, an import of BENCH_IMPORT_ROWS (1M)
 * new contacts into this account through the real import path, and the database's size per table.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, openDatabase, queryRows } from '../server/src/db/database';
import { accounts } from '../server/src/modules/accounts/accounts.db';
import { campaigns } from '../server/src/modules/campaigns/campaigns.db';
import { startCampaignSend } from '../server/src/modules/campaigns/start-campaign-send';
import { foldEngagement } from '../server/src/modules/segments/segment-engagement';
import { trustSenderAddress } from '../server/src/modules/sender-identities/testing/trust-sender';
import { creditAccount } from '../server/src/modules/sending/testing/send-fixtures';
import { adminStatement, benchDatabaseUrl } from './bench-database';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000_000);
const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 20);
const CHUNK = 1_000_000;
const FROM = 'loja@loja.exemplo.com.br';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.info(`${label}: ${fmt(performance.now() - start)} ms [load ${load()}]`);
  return result;
}

/** Drops the secondary indexes of a table (the primary key stays) and returns how to build them again. */
async function dropIndexes(db: Db, table: string): Promise<string[]> {
  const indexes = await queryRows<{ indexname: string; indexdef: string }>(
    db,
    sql`select i.indexname, i.indexdef from pg_indexes i
         where i.tablename = ${table}
           and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index ${index.indexname}`));
  return indexes.map((i) => i.indexdef);
}

/**
 * The backfill statements of the migrations that build message_events' rollups, in migration order: first opens
 * (0034), segment engagement (0044: its opened/clicked facts and the folded campaigns), the report rollup (0045),
 * segment engagement's delivered fact (0047, from the sent messages) and ever_opened (0049, from the first opens),
 * the compaction (0051, a CLUSTER), the contacts' segment rows (0066: every contact's row, then a CLUSTER) and the
 * custom fields' slots (0068: the most-carried keys get a slot, their values move from the jsonb to the slot
 * columns) — their INSERT … / WITH … / UPDATE … / CLUSTER statements, read from the .sql files as the migrations run
 * them. A CLUSTER runs once per table, after every other statement: 0068's UPDATE rewrites each row, so a compaction
 * before it would be undone. The seed runs 0050's (contact_field_values, the typed custom fields) and 0057's (the
 * account's field keys, which the segment editor and compiler read) after the contacts, whose insert trigger —
 * it writes both — is off during their generation (on, it made the generation ~5× slower).
 */
export function backfills(
  files = [
    '0034_contact_first_opens.sql',
    '0044_segment_engagement.sql',
    '0045_campaign_report_rollup.sql',
    '0047_segment_engagement_delivered.sql',
    '0049_segment_engagement_ever_opened.sql',
    '0051_segment_engagement_compact.sql',
    '0066_segment_rows.sql',
    '0068_segment_field_slots.sql',
  ],
): [string, string][] {
  const out: [string, string][] = [];
  const clusters = new Map<string, [string, string]>();
  for (const file of files) {
    const text = fs.readFileSync(new URL(`../server/drizzle/${file}`, import.meta.url), 'utf8');
    for (const part of text.split('--> statement-breakpoint')) {
      const statement = part
        .replace(/^\s*(--[^\n]*\n\s*)*/, '')
        .trim()
        .replace(/;\s*$/, '');
      const table = /^CLUSTER\s+(\S+)/.exec(statement)?.[1];
      if (table) clusters.set(table, [file, statement]);
      else if (/^(INSERT|WITH|UPDATE)\b/.test(statement)) out.push([file, statement]);
    }
  }
  return [...out, ...clusters.values()];
}

/** The tables those backfills write (emptied before they run, as they were when their migrations ran). */
const ROLLUPS = [
  'segment_field_slots',
  'contact_first_opens',
  'segment_engagement',
  'segment_engagement_folds',
  'message_event_firsts',
  'campaign_report_counts',
];

/**
 * After the snapshot (also a phase of its own, `events`, on a seeded database whose seed was stopped after the
 * snapshot): the big campaign's messages marked delivered, the events, their indexes, the rollups' backfills.
 */
async function seedEvents(db: Db, name: string, accountId: string, bigId: string): Promise<void> {
  const [range] = await queryRows<{ lo: number; hi: number; n: number }>(
    db,
    sql`select min(id)::bigint as lo, max(id)::bigint as hi, count(*)::bigint as n from messages where campaign_id = ${bigId}`,
  );
  const firstId = Number(range?.lo);
  const recipients = Number(range?.n);
  await timed('  its messages marked delivered (the engine simulated in SQL, not a measurement)', async () => {
    for (let lo = Number(range?.lo); lo <= Number(range?.hi); lo += CHUNK) {
      await db.execute(
        sql`update messages set status = 'sent', sent_at = now(), attempts = 1
               where campaign_id = ${bigId} and id between ${lo} and ${lo + CHUNK - 1} and status = 'queued'`,
      );
    }
    await db.execute(
      sql`update campaigns set status = 'sent', finished_at = now(), started_at = now() where id = ${bigId}`,
    );
  });

  // The events: UNLOGGED during the load (no WAL), every trigger off — the three statement triggers of the
  // rollups (first opens 0034, segment engagement 0044, report rollup 0045) and the two foreign keys' row
  // triggers — and the secondary indexes dropped; then the indexes rebuilt and the rollups built by the
  // migrations' own backfill statements, each timed (what an operator pays adopting them on such an account).
  // A seed run with BENCH_EVENTS=0 (then this phase, `events`) has run the backfills over no events already: the
  // rollups start empty again, as they were when their migrations ran.
  await db.execute(sql.raw(`truncate ${ROLLUPS.join(', ')}`));
  await timed('message_events set UNLOGGED (empty)', () => db.execute(sql`alter table message_events set unlogged`));
  await db.execute(sql`alter table message_events disable trigger all`);
  const eventIndexes = await dropIndexes(db, 'message_events');
  const olderIds = (
    await queryRows<{ id: string }>(db, sql`select id from campaigns where name <> 'Grande' order by started_at`)
  ).map((k) => k.id);
  const olderArray = sql.raw(`array[${olderIds.map((id) => `'${id}'::uuid`).join(',')}]`);
  const bigEvents = Number(process.env.BENCH_BIG_EVENTS ?? Math.round(EVENTS / 10));
  await timed(`message events: ${fmt(bigEvents)} on "Grande" (indexes and triggers off)`, async () => {
    for (let from = 1; from <= bigEvents; from += CHUNK) {
      const to = Math.min(bigEvents, from + CHUNK - 1);
      await db.execute(
        sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine, created_at)
              select m.id, m.campaign_id, m.account_id, m.contact_id,
                     case when g % 10 < 7 then 'open' when g % 10 < 9 then 'click' else 'unsubscribe' end,
                     g % 10 < 7 and g % 5 = 0, now() - ((g % 72) || ' hours')::interval
                from generate_series(${from}::bigint, ${to}::bigint) g
                join messages m on m.id = ${firstId}::bigint + (g * 2654435761) % ${recipients}::bigint
                               and m.campaign_id = ${bigId}`,
      );
    }
  });
  // The older campaigns' messages are not generated (only their events): message ids 10^12 + campaign × 10^8 +
  // contact, so a contact's repeated events on one campaign share a message, as they would.
  await timed(`message events: ${fmt(EVENTS - bigEvents)} on the older campaigns (no join: computed ids)`, async () => {
    for (let from = 1; from <= EVENTS - bigEvents; from += CHUNK) {
      const to = Math.min(EVENTS - bigEvents, from + CHUNK - 1);
      await db.execute(
        sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine, created_at)
              select 1000000000000 + k * 100000000 + n, (${olderArray})[k], ${accountId}::uuid, md5('c' || n)::uuid,
                     case when g % 20 < 13 then 'open' when g % 20 < 19 then 'click' else 'unsubscribe' end,
                     g % 20 < 13 and g % 5 = 0,
                     now() - (g % 140) * interval '1 day'
                from (select g, 1 + (g * 2654435761) % ${CONTACTS}::bigint as n,
                             1 + ((g / 7) % ${olderIds.length}::bigint)::int as k
                        from generate_series(${from}::bigint, ${to}::bigint) g) s`,
      );
      if ((to / CHUNK) % 10 === 0) console.info(`  … ${fmt(to)} [load ${load()}]`);
    }
  });
  if (process.env.BENCH_EVENTS_LOGGED === '1') {
    await timed('message_events set LOGGED (rewrites the heap into the WAL)', () =>
      db.execute(sql`alter table message_events set logged`),
    );
  }
  // One connection with an operator's settings for the rebuilds and backfills (the pool's stay at the defaults).
  const operator = new pg.Client({ connectionString: benchDatabaseUrl(name) });
  await operator.connect();
  try {
    await operator.query(`set maintenance_work_mem = '1GB'`);
    await operator.query(`set work_mem = '256MB'`);
    // BENCH_EVENT_INDEXES=<name>,…: only those (e.g. message_events_campaign_kind_idx, which a per-campaign backfill
    // reads); the others stay dropped — enough for a run that measures the rollups and the report only.
    const wantedIndexes = process.env.BENCH_EVENT_INDEXES?.split(',');
    await timed('message events: secondary indexes rebuilt', async () => {
      for (const definition of eventIndexes) {
        if (wantedIndexes && !wantedIndexes.some((w) => definition.includes(` ${w} `))) continue;
        await timed(`  ${definition.replace(/^CREATE INDEX (\S+) .*$/, '$1')}`, () => operator.query(definition));
      }
    });
    await operator.query('alter table message_events enable trigger all');
    // BENCH_BACKFILLS=0045,…: only those migrations' backfills. BENCH_REPORT_ROLLUP_BY=campaign: 0045's statement
    // once per campaign (its events only), each its own transaction — the batched form docs/scale.md asks for.
    const wantedBackfills = process.env.BENCH_BACKFILLS?.split(',');
    const byCampaign = process.env.BENCH_REPORT_ROLLUP_BY === 'campaign';
    await timed(`rollups built by the migrations' backfill statements`, async () => {
      for (const [file, statement] of backfills()) {
        if (wantedBackfills && !wantedBackfills.some((w) => file.startsWith(w))) continue;
        if (byCampaign && file.startsWith('0045')) {
          await reportRollupByCampaign(operator, statement);
          continue;
        }
        await timed(`  ${file}: ${statement.replace(/\s+/g, ' ').slice(0, 60)}…`, () => operator.query(statement));
      }
    });
    await timed('vacuum analyze', async () => {
      for (const table of [
        'message_events',
        'messages',
        'contact_first_opens',
        'campaigns',
        'segment_engagement',
        'segment_engagement_folds',
        'message_event_firsts',
        'campaign_report_counts',
      ]) {
        await timed(`  ${table}`, () => operator.query(`vacuum analyze ${table}`));
      }
    });
  } finally {
    await operator.end();
  }
}

/**
 * 0045's backfill statement run once per campaign, over that campaign's events only (each statement groups by
 * campaign first, so the batches together write what the one statement writes — `check` compares them with the
 * triggers' rollup). Prints each batch's time and temp bytes (pg_stat_database, read before and after).
 */
async function reportRollupByCampaign(operator: pg.Client, statement: string): Promise<void> {
  const from = 'FROM message_events e';
  if (!statement.includes(from)) throw new Error('0045 backfill: no "FROM message_events e" to narrow');
  const batch = statement.replace(from, 'FROM (SELECT * FROM message_events WHERE campaign_id = $1) e');
  const temp = async () =>
    Number(
      (await operator.query('select temp_bytes from pg_stat_database where datname = current_database()')).rows[0]
        .temp_bytes,
    );
  const { rows } = await operator.query(
    `select c.id, c.name, (select count(*) from message_events e where e.campaign_id = c.id)::bigint as events
       from campaigns c where exists (select 1 from message_events e where e.campaign_id = c.id) order by c.started_at`,
  );
  await timed(`  0045_campaign_report_rollup.sql per campaign (${rows.length} statements)`, async () => {
    for (const k of rows) {
      const before = await temp();
      const start = performance.now();
      await operator.query(batch, [k.id]);
      const elapsed = performance.now() - start;
      // pg_stat_database is updated when the statement's backend reports; a short pause lets it land.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const spilled = (await temp()) - before;
      console.info(
        `    ${k.name}: ${fmt(Number(k.events))} events in ${fmt(elapsed)} ms (${((elapsed / Number(k.events)) * 1000).toFixed(1)} µs each), temp ${fmt(spilled / 1048576)} MB [load ${load()}]`,
      );
    }
  });
}

async function seed(): Promise<void> {
  const name = `bench_10m_${randomBytes(4).toString('hex')}`;
  await adminStatement(`create database ${name}`);
  console.info(`database ${name} (kept; drop it with: BENCH_REUSE_DB=${name} npx tsx bench/ten-million.ts drop)`);
  const database = await openDatabase({ kind: 'postgres', url: benchDatabaseUrl(name), poolSize: 2 });
  const db = database.db;
  try {
    await database.migrate();
    const [account] = await db
      .insert(accounts)
      .values({
        uuid: crypto.randomUUID(),
        ownerUserId: 'bench',
        name: 'Loja Dez Milhões',
        address: 'Rua das Flores, 100 — Recife/PE',
        legalName: 'Loja Dez Milhões Comércio Ltda.',
        taxId: '11.222.333/0001-81',
      })
      .returning();
    if (!account) throw new Error('no account');
    const accountId = account.id;
    await trustSenderAddress(db, accountId, FROM);
    await creditAccount(db, accountId, 5 * CONTACTS + 100_000);

    const contactIndexes = await dropIndexes(db, 'contacts');
    // The typed projection's insert trigger off during the generation, its index dropped; 0050's own backfill
    // then writes it once, timed (with the trigger on, 1M contacts took ~5 min at load 9 instead of ~1).
    await db.execute(sql`alter table contacts disable trigger contacts_field_values_insert`);
    // The segment rows' too: 0066's backfill writes them with the other rollups (the events phase).
    await db.execute(sql`alter table contacts disable trigger contacts_segment_rows_insert`);
    const fieldIndexes = await dropIndexes(db, 'contact_field_values');
    await timed(`contacts: ${fmt(CONTACTS)} generated (secondary indexes dropped)`, async () => {
      for (let from = 1; from <= CONTACTS; from += CHUNK) {
        const to = Math.min(CONTACTS, from + CHUNK - 1);
        await db.execute(
          sql`insert into contacts (id, account_id, email, name, fields, status, created_at)
              select md5('c' || g)::uuid, ${accountId}::uuid, 'c' || g || '@exemplo' || (g % 97) || '.com.br', 'Pessoa ' || g,
                     jsonb_build_object(
                       'cidade', (array['São Paulo', 'Rio de Janeiro', 'Recife', 'Curitiba', 'Belo Horizonte'])[1 + g % 5],
                       'pontos', (g % 500)::text,
                       'nascimento', to_char(date '1970-01-01' + (g % 15000), 'YYYY-MM-DD')),
                     case when g % 20 = 0 then 'unsubscribed' else 'subscribed' end,
                     now() - ((g % 1100) || ' days')::interval
                from generate_series(${from}::int, ${to}::int) g`,
        );
      }
    });
    await timed('contacts: secondary indexes rebuilt', async () => {
      for (const definition of contactIndexes) await db.execute(sql.raw(definition));
    });
    await db.execute(sql`alter table contacts enable trigger contacts_field_values_insert`);
    await db.execute(sql`alter table contacts enable trigger contacts_segment_rows_insert`);
    // The keys table (0057) is kept by the same trigger, so its backfill runs too.
    await timed('contact_field_values and contact_field_keys: backfills of 0050 and 0057, the index', async () => {
      for (const [file, statement] of backfills(['0050_contact_field_values.sql', '0057_contact_field_keys.sql'])) {
        await timed(`  ${file}: ${statement.replace(/\s+/g, ' ').slice(0, 60)}…`, () => db.execute(sql.raw(statement)));
      }
      for (const definition of fieldIndexes) await db.execute(sql.raw(definition));
    });
    const [list] = await queryRows<{ id: string }>(
      db,
      sql`insert into lists (account_id, name) values (${accountId}, 'Clientes') returning id`,
    );
    // The reference trigger off for this one statement: on 10M rows it aggregates and locks every contact (FOR KEY
    // SHARE, a write to each contact's tuple) at the end of the statement; the rows are consistent by construction.
    await timed('list memberships: every contact on "Clientes" (reference trigger off)', async () => {
      await db.execute(sql`alter table list_memberships disable trigger list_memberships_refs_ins`);
      // The segment rows' lists come with 0066's backfill (the events phase).
      await db.execute(sql`alter table list_memberships disable trigger list_memberships_segment_rows_insert`);
      await db.execute(
        sql`insert into list_memberships (list_id, contact_id, status)
            select ${list?.id}::uuid, id, case when status = 'subscribed' then 'subscribed' else 'unsubscribed' end
              from contacts where account_id = ${accountId}`,
      );
      await db.execute(sql`alter table list_memberships enable trigger list_memberships_refs_ins`);
      await db.execute(sql`alter table list_memberships enable trigger list_memberships_segment_rows_insert`);
    });
    await db.execute(sql`vacuum analyze contacts`);
    await db.execute(sql`vacuum analyze list_memberships`);
    await db.execute(
      sql`insert into campaigns (uuid, created_by, name, subject, status, started_at, finished_at, from_email)
          select gen_random_uuid(), ${accountId}::uuid, 'Campanha ' || g, 'Oi', 'sent',
                 now() - ((${CAMPAIGNS}::int + 1 - g) * 7 || ' days')::interval,
                 now() - ((${CAMPAIGNS}::int + 1 - g) * 7 || ' days')::interval, ${FROM}
            from generate_series(1, ${CAMPAIGNS}::int) g`,
    );

    // The snapshot of a campaign to the whole list, through the real code (audience query, eligibility,
    // reservation on the ledger), with every index in place.
    const [big] = await db
      .insert(campaigns)
      .values({
        uuid: crypto.randomUUID(),
        createdBy: accountId,
        name: 'Grande',
        subject: 'Ofertas de verão',
        fromName: 'Loja',
        fromEmail: FROM,
        includeListIds: [list?.id as string],
        template: '<p>Olá, {{ contato.nome }}! <a href="{{ link_descadastro }}">Descadastrar</a></p>',
      })
      .returning();
    if (!big) throw new Error('no campaign');
    const started = await timed('snapshot of "Grande" to the list (startCampaignSend)', () =>
      startCampaignSend(db, accountId, big.id, null),
    );
    console.info(`  ${fmt(started.recipients)} recipients`);
    await seedEvents(db, name, accountId, big.id);
    console.info(`seeded ${name}: account ${accountId}, campaign "Grande" ${big.id}`);
  } finally {
    await database.close();
  }
}

/**
 * check (a small seed only: it re-inserts every event and leaves the rollups as the product built them): the
 * rollups the backfills built equal those the product builds — the events re-inserted in time order in
 * BENCH_CHECK_CHUNKS statements with the triggers on (first opens, engagement's opened/clicked/ever_opened facts,
 * the report rollup), then every sent campaign folded by foldEngagement, the count path's writer of the delivered
 * facts (segment_engagement.last_delivered_*, from the sent messages) and of the folded campaigns.
 */
async function check(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    for (const t of ROLLUPS) await client.query(`create temp table backfilled_${t} as select * from ${t}`);
    await client.query('create temp table events as select * from message_events order by created_at, id');
    await client.query(`truncate message_events, ${ROLLUPS.join(', ')}`);
    // Every contact's segment row again (the contacts' triggers wrote them; the events merge into them).
    for (const [, statement] of backfills(['0066_segment_rows.sql', '0068_segment_field_slots.sql'])) {
      await client.query(statement);
    }
    const chunks = Number(process.env.BENCH_CHECK_CHUNKS ?? 10);
    const { rows } = await client.query('select count(*)::bigint as n from events');
    const n = Number(rows[0].n);
    await client.query('create temp sequence ord');
    await client.query(`alter table events add column ord bigint`);
    await client.query(`update events set ord = nextval('ord')`);
    for (let i = 0; i < chunks; i++) {
      await client.query(
        `insert into message_events select id, message_id, campaign_id, account_id, contact_id, kind, machine, link_id,
                bounce_kind, detail, user_agent, ip, created_at
           from events where ord > $1 and ord <= $2 order by ord`,
        [Math.floor((n * i) / chunks), Math.floor((n * (i + 1)) / chunks)],
      );
    }
    const sent = await client.query(
      `select created_by as account, array_agg(id order by started_at) as ids from campaigns where status = 'sent' group by created_by`,
    );
    for (const { account, ids } of sent.rows) await foldEngagement(database.db, account, ids);
    const delivered = await client.query(
      `select count(*)::int as n from segment_engagement where last_delivered_campaign_id is not null`,
    );
    console.info(`delivered facts written by foldEngagement: ${delivered.rows[0].n}`);
    let differing = 0;
    for (const t of ROLLUPS) {
      // Every column compared, but when a campaign was folded (a clock reading, not a fact).
      const cols = t === 'segment_engagement_folds' ? 'campaign_id' : '*';
      const diff = await client.query(
        `select (select count(*) from (select ${cols} from ${t} except all select ${cols} from backfilled_${t}) a)::int as extra,
                (select count(*) from (select ${cols} from backfilled_${t} except all select ${cols} from ${t}) b)::int as missing,
                (select count(*) from ${t})::int as rows`,
      );
      const { extra, missing } = diff.rows[0];
      differing += extra + missing;
      console.info(
        `${t}: ${diff.rows[0].rows} rows by the product's writers; differing from the backfill: +${extra} −${missing}`,
      );
    }
    if (differing > 0) process.exitCode = 1;
  } finally {
    await database.close();
    await client.end();
  }
}

async function main(): Promise<void> {
  const phase = process.argv[2] ?? 'seed';
  if (phase === 'seed') return seed();
  const name = process.env.BENCH_REUSE_DB;
  if (!name) throw new Error('BENCH_REUSE_DB=<database> is needed');
  if (phase === 'drop') return adminStatement(`drop database if exists ${name} with (force)`);
  if (phase === 'check') return check(benchDatabaseUrl(name));
  if (phase === 'events') {
    const database = await openDatabase({ kind: 'postgres', url: benchDatabaseUrl(name), poolSize: 2 });
    try {
      const [row] = await queryRows<{ account: string; big: string }>(
        database.db,
        sql`select a.id as account, c.id as big from accounts a join campaigns c on c.created_by = a.id
             where a.owner_user_id = 'bench' and c.name = 'Grande'`,
      );
      if (!row) throw new Error('not seeded');
      return await seedEvents(database.db, name, row.account, row.big);
    } finally {
      await database.close();
    }
  }
  const { measure } = await import('./ten-million-measure');
  await measure(benchDatabaseUrl(name));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
