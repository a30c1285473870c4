/**
 * The ten-million simulation (by hand, not part of `npm run bench`): one account with 10M contacts and ~100M
 * message events on the local PostgreSQL, then what such an account does at that size, each step timed through
 * the real code. Two phases, so the long generation runs once:
 *
 *   npx tsx bench/ten-million.ts seed                     # prints the database name (kept)
 *   BENCH_REUSE_DB=<name> npx tsx bench/ten-million.ts measure
 *   BENCH_REUSE_DB=<name> npx tsx bench/ten-million.ts drop
 *
 * seed: migrates a new database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), generates
 * BENCH_CONTACTS (10M) contacts with custom fields on one list, BENCH_CAMPAIGNS (20) sent campaigns a week apart,
 * then **the snapshot of a campaign to the whole list through startCampaignSend (timed)**; its messages are then
 * marked delivered (the engine's outcome, simulated in SQL) and BENCH_EVENTS (100M) message events are written —
 * 10 % on that campaign's messages, the rest spread over the older campaigns and the contacts (≈ 65 % opens, a
 * fifth machine, 30 % clicks, 5 % unsubscribes). Secondary indexes of contacts and message_events are dropped
 * during the load and rebuilt from their own definitions, then VACUUM ANALYZE. Every step prints its time.
 *
 * measure: the big campaign's report and its recipients CSV export (streamed to /dev/null: time to the first
 * byte, total, rows/s, the process's peak RSS), segment counts (bench/segments.ts, the same segments), the
 * suppression check of one engine batch with 1M suppressions on the account, an import of BENCH_IMPORT_ROWS (1M)
 * new contacts into this account through the real import path, and the database's size per table.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, openDatabase, queryRows } from '../server/src/db/database';
import { accounts } from '../server/src/modules/accounts/accounts.db';
import { campaigns } from '../server/src/modules/campaigns/campaigns.db';
import { startCampaignSend } from '../server/src/modules/campaigns/start-campaign-send';
import { trustSenderAddress } from '../server/src/modules/sender-identities/testing/trust-sender';
import { creditAccount } from '../server/src/modules/sending/testing/send-fixtures';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000_000);
const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 20);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
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

function urlOf(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(statement);
  await client.end();
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

async function seed(): Promise<void> {
  const name = `bench_10m_${randomBytes(4).toString('hex')}`;
  await admin(`create database ${name}`);
  console.info(`database ${name} (kept; drop it with: BENCH_REUSE_DB=${name} npx tsx bench/ten-million.ts drop)`);
  const database = await openDatabase({ kind: 'postgres', url: urlOf(name), poolSize: 2 });
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
    await timed(`contacts: ${fmt(CONTACTS)} generated (secondary indexes dropped)`, async () => {
      for (let from = 1; from <= CONTACTS; from += CHUNK) {
        const to = Math.min(CONTACTS, from + CHUNK - 1);
        await db.execute(
          sql`insert into contacts (account_id, email, name, fields, status, created_at)
              select ${accountId}::uuid, 'c' || g || '@exemplo' || (g % 97) || '.com.br', 'Pessoa ' || g,
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
    const [list] = await queryRows<{ id: string }>(
      db,
      sql`insert into lists (account_id, name) values (${accountId}, 'Clientes') returning id`,
    );
    await timed('list memberships: every contact on "Clientes"', async () => {
      await db.execute(
        sql`insert into list_memberships (list_id, contact_id, status)
            select ${list?.id}::uuid, id, case when status = 'subscribed' then 'subscribed' else 'unsubscribed' end
              from contacts where account_id = ${accountId}`,
      );
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
    const [range] = await queryRows<{ lo: number; hi: number }>(
      db,
      sql`select min(id)::bigint as lo, max(id)::bigint as hi from messages where campaign_id = ${big.id}`,
    );
    const firstId = Number(range?.lo);
    await timed('  its messages marked delivered (the engine simulated in SQL, not a measurement)', async () => {
      for (let lo = Number(range?.lo); lo <= Number(range?.hi); lo += CHUNK) {
        await db.execute(
          sql`update messages set status = 'sent', sent_at = now(), attempts = 1
               where campaign_id = ${big.id} and id between ${lo} and ${lo + CHUNK - 1} and status = 'queued'`,
        );
      }
      await db.execute(
        sql`update campaigns set status = 'sent', finished_at = now(), started_at = now() where id = ${big.id}`,
      );
    });

    const eventIndexes = await dropIndexes(db, 'message_events');
    await db.execute(sql`create temp table bench_c as select id, row_number() over () as n from contacts`);
    await db.execute(
      sql`create temp table bench_k as select id, row_number() over (order by started_at) as n from campaigns
           where name <> 'Grande'`,
    );
    await db.execute(sql`create index on bench_c (n)`);
    await db.execute(sql`create index on bench_k (n)`);
    const bigEvents = Math.round(EVENTS / 10);
    await timed(`message events: ${fmt(bigEvents)} on "Grande" (indexes dropped)`, async () => {
      for (let from = 1; from <= bigEvents; from += CHUNK) {
        const to = Math.min(bigEvents, from + CHUNK - 1);
        await db.execute(
          sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine, created_at)
              select m.id, m.campaign_id, m.account_id, m.contact_id,
                     case when g % 10 < 7 then 'open' when g % 10 < 9 then 'click' else 'unsubscribe' end,
                     g % 10 < 7 and g % 5 = 0, now() - ((g % 72) || ' hours')::interval
                from generate_series(${from}::bigint, ${to}::bigint) g
                join messages m on m.id = ${firstId}::bigint + (g * 2654435761) % ${started.recipients}::bigint
                               and m.campaign_id = ${big.id}`,
        );
      }
    });
    await timed(`message events: ${fmt(EVENTS - bigEvents)} on the older campaigns`, async () => {
      for (let from = 1; from <= EVENTS - bigEvents; from += CHUNK) {
        const to = Math.min(EVENTS - bigEvents, from + CHUNK - 1);
        await db.execute(
          sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine, created_at)
              select g, k.id, ${accountId}::uuid, c.id,
                     case when g % 20 < 13 then 'open' when g % 20 < 19 then 'click' else 'unsubscribe' end,
                     g % 20 < 13 and g % 5 = 0,
                     now() - ((g % 140) || ' days')::interval
                from generate_series(${from}::bigint, ${to}::bigint) g
                join bench_c c on c.n = 1 + (g * 2654435761) % ${CONTACTS}::bigint
                join bench_k k on k.n = 1 + (g / 7) % ${CAMPAIGNS}::bigint`,
        );
        if ((to / CHUNK) % 10 === 0) console.info(`  … ${fmt(to)} [load ${load()}]`);
      }
    });
    await timed('message events: secondary indexes rebuilt', async () => {
      for (const definition of eventIndexes) await db.execute(sql.raw(definition));
    });
    await timed('vacuum analyze', async () => {
      for (const table of ['message_events', 'messages', 'contact_first_opens', 'campaigns']) {
        await db.execute(sql.raw(`vacuum analyze ${table}`));
      }
    });
    console.info(`seeded ${name}: account ${accountId}, campaign "Grande" ${big.id}`);
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const phase = process.argv[2] ?? 'seed';
  if (phase === 'seed') return seed();
  const name = process.env.BENCH_REUSE_DB;
  if (!name) throw new Error('BENCH_REUSE_DB=<database> is needed');
  if (phase === 'drop') return admin(`drop database if exists ${name} with (force)`);
  const { measure } = await import('./ten-million-measure');
  await measure(urlOf(name));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
