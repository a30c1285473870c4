import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/support/seeded-random';
import {
  createDatabaseBeforeMigration,
  createTestDatabase,
  DATABASE_KINDS,
  insertAccountRow,
} from '../../../test/support/test-database';
import { type Database, type Db, queryRows } from '../../db/database';
import { writeEngagementCounters } from '../campaigns/campaign-records';
import { eraseContact } from '../contacts/erase-contact';
import { EventRecorder, type PendingEvent } from '../tracking/event-recorder';
import { type BounceKind, recordMessageEventOnce } from '../tracking/message-events';
import { abVariantStats } from './ab-report';
import { campaignEventCounts, campaignReport } from './reports';
import { rawAbVariantCounts, rawCampaignEventCounts } from './testing/raw-campaign-report';

const silent = pino({ level: 'silent' });
const HOUR = 3_600_000;
/** 09:58 UTC: the generated events run from here across four hour boundaries. */
const START = Date.UTC(2026, 10, 20, 9, 58, 0);

interface SeededCampaign {
  id: string;
  links: number[];
  messages: Array<{ id: number; token: string; contactId: string }>;
}
interface Seeded {
  accountId: string;
  campaigns: SeededCampaign[];
  /** The A/B campaign (the first) and the last message id of its test share. */
  abTestLast: number;
}

/** An account with three sent campaigns (the first an A/B test), their tracked links and sent messages. */
async function seedCampaigns(db: Db, perCampaign = 60): Promise<Seeded> {
  const accountId = await insertAccountRow(db);
  const campaigns: SeededCampaign[] = [];
  for (let c = 0; c < 3; c++) {
    const [campaign] = await queryRows<{ id: string }>(
      db,
      sql`insert into campaigns (uuid, created_by, name, subject, status, recipients_count, sent_count)
          values (gen_random_uuid(), ${accountId}, ${`Campanha ${c}`}, 'Ofertas', 'sent', ${perCampaign}, ${perCampaign})
          returning id`,
    );
    const id = campaign?.id as string;
    await db.execute(
      sql`insert into campaign_sends (campaign_id, account_id, recipients) values (${id}, ${accountId}, ${perCampaign})`,
    );
    const links = await queryRows<{ id: number }>(
      db,
      sql`insert into campaign_links (campaign_id, url)
          select ${id}, 'https://loja.example/p/' || g from generate_series(1, 4) g returning id`,
    );
    const messages = await queryRows<{ id: number; token: string; contact_id: string }>(
      db,
      sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at, attempts, variant)
          select ${id}, ${accountId}, gen_random_uuid(), 'pessoa' || g || '@exemplo.com.br', 'sent',
                 ${`tok-${c}-`} || lpad(g::text, 36, '0'), ${new Date(START - HOUR)}, 1,
                 case when ${c} = 0 and g <= 40 then g % 3 end
            from generate_series(1, ${perCampaign}) g order by g returning id, token, contact_id`,
    );
    campaigns.push({
      id,
      links: links.map((l) => Number(l.id)),
      messages: messages.map((m) => ({ id: Number(m.id), token: m.token, contactId: m.contact_id })),
    });
  }
  // The first campaign's test share: its first 40 messages, in three variants (the snapshot writes both at once).
  const abTestLast = (campaigns[0] as SeededCampaign).messages[39]?.id as number;
  await db.execute(
    sql`update campaign_sends set ab_test_last_message_id = ${abTestLast} where campaign_id = ${campaigns[0]?.id}`,
  );
  return { accountId, campaigns, abTestLast };
}

/**
 * Events of every kind the report counts, through every writer: three event recorders (three API processes)
 * flushing small batches at the same time — repeated and machine opens, human and machine clicks on several links,
 * a click on another campaign's link (dropped by the recorder) —, bounces of every kind, complaints and
 * unsubscribes one at a time (repeats add nothing), and multi-row inserts of mixed kinds and campaigns, some exactly
 * on an hour boundary, one a click without a link and one a bounce without a kind.
 */
async function generateEvents(db: Db, seeded: Seeded, seed: number): Promise<void> {
  const next = seededRandom(seed).next;
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)] as T;
  const recorders = Array.from(
    { length: 3 },
    () => new EventRecorder(db, { logger: silent, writeEngagementCounters, flushMs: 60_000, maxBatch: 1_000 }),
  );
  for (let round = 0; round < 6; round++) {
    for (const recorder of recorders) {
      for (let i = 0; i < 40; i++) {
        const campaign = pick(seeded.campaigns);
        const message = pick(campaign.messages.slice(0, 45)); // some messages never get an event
        const click = next() < 0.4;
        const event: PendingEvent = {
          messageToken: message.token,
          kind: click ? 'click' : 'open',
          linkId: click
            ? next() < 0.05
              ? pick((seeded.campaigns[2] as SeededCampaign).links)
              : pick(campaign.links)
            : null,
          machine: next() < 0.25,
          nonBrowser: false,
          userAgent: 'Mozilla/5.0',
          ip: '203.0.113.7',
          at: new Date(START + Math.floor(next() * 4 * HOUR)),
        };
        recorder.record(event);
      }
    }
    // The three batches are written at once (on PostgreSQL, three connections), touching the same counters.
    await Promise.all(recorders.map((r) => r.flush()));
  }
  for (const recorder of recorders) await recorder.close();

  const kinds: Array<{ kind: 'bounce' | 'complaint' | 'unsubscribe'; bounceKind: BounceKind | null }> = [
    { kind: 'bounce', bounceKind: 'hard' },
    { kind: 'bounce', bounceKind: 'soft' },
    { kind: 'bounce', bounceKind: 'policy' },
    { kind: 'complaint', bounceKind: null },
    { kind: 'unsubscribe', bounceKind: null },
  ];
  for (let i = 0; i < 45; i++) {
    const campaign = pick(seeded.campaigns);
    const message = pick(campaign.messages);
    const { kind, bounceKind } = pick(kinds);
    const event = {
      messageId: message.id,
      campaignId: campaign.id,
      accountId: seeded.accountId,
      contactId: message.contactId,
      kind,
      bounceKind,
      detail: null,
      userAgent: null,
    };
    await recordMessageEventOnce(db, event);
    if (i % 5 === 0) await recordMessageEventOnce(db, event); // a repeated report adds nothing
  }

  const [a, b] = seeded.campaigns as [SeededCampaign, SeededCampaign];
  const at = (ms: number) => new Date(START + ms).toISOString();
  const row = (
    c: SeededCampaign,
    m: number,
    kind: string,
    extra: { machine?: boolean; link?: number | null; bounce?: string | null; ms: number },
  ) =>
    sql`(${c.messages[m]?.id}, ${c.id}, ${seeded.accountId}, ${c.messages[m]?.contactId}, ${kind}, ${extra.machine ?? false},
         ${extra.link ?? null}::int, ${extra.bounce ?? null}, ${at(extra.ms)}::timestamptz)`;
  await db.execute(
    sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine, link_id, bounce_kind, created_at)
        values ${sql.join(
          [
            row(a, 50, 'open', { ms: 2 * 60_000 }), // 10:00:00.000 exactly
            row(a, 50, 'open', { ms: 2 * 60_000 - 1 }), // 09:59:59.999, inserted after: still the same message
            row(a, 51, 'click', { link: null, ms: HOUR }),
            row(a, 51, 'click', { link: a.links[0], ms: HOUR + 1 }),
            row(a, 52, 'unsubscribe', { machine: true, ms: 3 * HOUR }),
            row(b, 50, 'bounce', { bounce: null, ms: 5 * HOUR }),
            row(b, 50, 'bounce', { bounce: 'soft', ms: 5 * HOUR }),
            row(b, 51, 'open', { machine: true, ms: 6 * HOUR }), // an hour with only a machine open
            row(b, 52, 'click', { link: b.links[1], ms: 2 * 60_000 }),
            row(b, 52, 'click', { link: b.links[1], ms: 2 * 60_000 }),
          ],
          sql`, `,
        )}`,
  );
}

async function expectRollupEqualsEvents(db: Db, seeded: Seeded): Promise<void> {
  for (const campaign of seeded.campaigns) {
    expect(await campaignEventCounts(db, campaign.id)).toEqual(await rawCampaignEventCounts(db, campaign.id));
  }
  const ab = await abVariantStats(db, (seeded.campaigns[0] as SeededCampaign).id, 3, seeded.abTestLast);
  const raw = await rawAbVariantCounts(db, (seeded.campaigns[0] as SeededCampaign).id, seeded.abTestLast);
  expect(ab.map(({ index, uniqueOpens, uniqueClicks }) => ({ index, uniqueOpens, uniqueClicks }))).toEqual(raw);
}

describe.each(DATABASE_KINDS)('campaign report rollup on %s', (kind) => {
  let database: Database;
  let db: Db;
  let seeded: Seeded;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
    seeded = await seedCampaigns(db);
    await generateEvents(db, seeded, 26);
  }, 120_000);
  afterAll(() => database.close());

  it('equals the report read from every event, field by field: totals, uniques, links, hours, A/B variants', async () => {
    const raw = await rawCampaignEventCounts(db, (seeded.campaigns[0] as SeededCampaign).id);
    // The generated events reach every field (so equal is not trivially zero = zero).
    expect(raw.humanOpens).toBeGreaterThan(10);
    expect(raw.machineOpens).toBeGreaterThan(0);
    expect(raw.totalOpens).toBeGreaterThan(raw.humanOpens);
    expect(raw.machineClicks).toBeGreaterThan(0);
    expect(raw.links.filter((l) => l.uniqueClicks > 1).length).toBeGreaterThan(1);
    expect(raw.series.length).toBeGreaterThanOrEqual(5);
    const all = await Promise.all(seeded.campaigns.map((c) => rawCampaignEventCounts(db, c.id)));
    for (const field of ['hard', 'soft', 'policy'] as const) {
      expect(all.reduce((sum, r) => sum + r.bounces[field], 0)).toBeGreaterThan(0);
    }
    expect(all.reduce((sum, r) => sum + r.complaints + r.unsubscribes, 0)).toBeGreaterThan(2);
    const ab = await rawAbVariantCounts(db, (seeded.campaigns[0] as SeededCampaign).id, seeded.abTestLast);
    expect(ab).toHaveLength(3);

    await expectRollupEqualsEvents(db, seeded);

    // What the report answers is the rollup's, with the campaign's counters around it.
    const report = await campaignReport(db, seeded.accountId, (seeded.campaigns[0] as SeededCampaign).id);
    expect(report.opens).toMatchObject({
      uniqueHuman: raw.humanOpens,
      machine: raw.machineOpens,
      total: raw.totalOpens,
    });
    expect(report.clicks).toMatchObject({ unique: raw.uniqueClicks, total: raw.totalClicks });
    expect(report.opens.rate).toBe(Math.round((raw.humanOpens / 60) * 10_000) / 10_000);
    expect(report.links).toEqual(raw.links);
    expect(report.series).toEqual(raw.series);
  });

  it('stays equal after more batches, an erased contact, and goes with its campaign', async () => {
    await generateEvents(db, seeded, 27);
    // Erasure deletes the contact, not its messages' events: both reports keep counting them.
    const campaign = seeded.campaigns[1] as SeededCampaign;
    const [erased] = await queryRows<{ id: string }>(
      db,
      sql`select m.contact_id as id from message_events e join messages m on m.id = e.message_id
           where e.campaign_id = ${campaign.id} limit 1`,
    );
    await db.execute(
      sql`insert into contacts (id, account_id, email) values (${erased?.id}, ${seeded.accountId}, 'apagar@exemplo.com.br')`,
    );
    await eraseContact(db, seeded.accountId, erased?.id as string, async () => {});
    await expectRollupEqualsEvents(db, seeded);

    const gone = seeded.campaigns[2] as SeededCampaign;
    await db.execute(sql`delete from campaigns where id = ${gone.id}`);
    const [left] = await queryRows<{ firsts: number; counts: number }>(
      db,
      sql`select (select count(*) from message_event_firsts where campaign_id = ${gone.id})::int as firsts,
                 (select count(*) from campaign_report_counts where campaign_id = ${gone.id})::int as counts`,
    );
    expect(left).toEqual({ firsts: 0, counts: 0 });
  }, 60_000);
});

describe.each(DATABASE_KINDS)('the rollup migration on %s', (kind) => {
  it('folds the events recorded before it exactly as the trigger folds new ones', async () => {
    // The schema as it was before the rollup (migrations up to the previous one), with events in it, then migrated.
    const database = await createDatabaseBeforeMigration(kind, '_campaign_report_rollup');
    try {
      const seeded = await seedCampaigns(database.db);
      await generateEvents(database.db, seeded, 7);
      await database.migrate();
      const [folded] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from campaign_report_counts`,
      );
      expect(folded?.n).toBeGreaterThan(20);
      await expectRollupEqualsEvents(database.db, seeded);
      // …and the trigger adds to what the backfill folded.
      await generateEvents(database.db, seeded, 8);
      await expectRollupEqualsEvents(database.db, seeded);
    } finally {
      await database.close();
    }
  }, 120_000); // two full migrations of a fresh database: slow on a loaded box
});
