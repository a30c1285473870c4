import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SegmentCondition, SegmentGroup } from '@carteiro/shared';
import { segmentTreeSchema } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/support/seeded-random';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { createDatabaseBeforeMigration, DATABASE_KINDS, insertAccountRow } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';
import { recentSentCampaignIds } from '../campaigns/campaign-directory';
import { deleteContacts } from '../contacts/delete-contacts';
import { eraseContact } from '../contacts/erase-contact';
import { compileSegment, compileSegmentPredicate } from './compile-segment';
import { foldEngagement } from './segment-engagement';
import { countSegment, previewSegment, segmentContextFor, segmentCountQuery } from './segments';
import { compilePreviousSegment } from './testing/previous-segment-compiler';
import { segmentRowFields } from './testing/segment-row-fields';
import { all, any } from './testing/segment-trees';

/**
 * The segment queries (contact sets as hash joins, the audience's predicate form, "nunca abriu" from
 * contact_first_opens) select exactly the contacts the previous compiler selected, for generated condition
 * trees over a generated account: awkward field values (numbers with commas, 16 digits, 13 decimals, dates in
 * both spellings and invalid ones, accents and case), every membership status, campaigns with sent, failed and
 * queued messages, human and machine opens and clicks, subscription instants around midnight in São Paulo
 * (including the 2018 daylight-saving gap).
 */

const CASES = Number(process.env.SEGMENT_CASES ?? 60);

// Values with digits and punctuation among letters whose lower case differs (the Kelvin sign, a Roman numeral, a
// dotted capital I) for the values compared without lower() (compile-segment.ts CASELESS_VALUE).
const CITIES = [
  'São Paulo',
  'são paulo',
  'SÃO PAULO',
  'Recife',
  'recife ',
  'Rio de Janeiro',
  'Curitiba',
  '',
  ' ',
  'Rua 12-B',
  '\u212A-100',
  '100',
];
const POINTS = [
  '10',
  '10,5',
  '10.5',
  '-3',
  ' 42 ',
  '0',
  '250',
  '250,0',
  '999999999999999',
  '1234567890123456',
  '1.123456789012',
  '1.1234567890123',
  'abc',
  '',
  '7.',
  '.5',
  '--1',
  '1,2,3',
  '٣',
];
const BIRTHS = [
  '2000-02-29',
  '15/02/1985',
  '31/02/1999',
  '1990-03-01T10:00:00Z',
  ' 1985-11-03 ',
  'amanhã',
  '1/2/1990',
  '2001-13-45',
  '03/11/1979',
  '1979-11-30',
  '',
  // Month ends, leap days and impossible months around the month key of contact_field_values (migration 0052).
  '1990-12-31',
  '01/01/2000',
  '31/12/1980',
  '1984-02-29',
  '29/02/2001',
  '2001-00-10',
  '1999-99-99',
  '  ',
];
const NAMES = [null, 'Ana Souza', 'BRUNO lima', 'Çécilia', 'davi', '', 'Eva 100%_x', 'Ⅻ 100', 'İZMİR 42-'];
const STATUSES = ['subscribed', 'subscribed', 'subscribed', 'unsubscribed', 'bounced', 'complained'] as const;
/** Instants around local midnight in São Paulo (UTC−3; UTC−2 in its 2018 summer time, which began at midnight). */
const JOINED = [
  '2024-01-01T02:59:59Z',
  '2024-01-01T03:00:00Z',
  '2023-12-31T12:00:00Z',
  '2018-11-04T02:59:59Z',
  '2018-11-04T03:00:00Z',
  '2018-11-03T23:30:00Z',
  '2019-02-17T01:59:59Z',
  '2019-02-17T02:00:00Z',
  '2025-06-15T12:00:00Z',
];
const DATES = ['2024-01-01', '2023-12-31', '2018-11-04', '2018-11-03', '2019-02-16', '1990-01-01', '2000-02-29'];
/**
 * "This month" where the account is (São Paulo, UTC−3): the last second of February / December there is
 * already March / January in UTC, and a leap day.
 */
const NOWS = [
  '2027-03-01T02:00:00Z',
  '2027-03-01T03:00:00Z',
  '2026-11-15T12:00:00Z',
  '2028-02-29T12:00:00Z',
  '2027-01-01T02:59:59Z',
  '2027-01-01T03:00:00Z',
];

/** A migration's backfill statements of `table` (its `INSERT INTO table`, or `<verb> table`, statements; comment lines dropped). */
function migrationStatements(file: string, table: string, verb = 'INSERT INTO'): string[] {
  return readFileSync(new URL(`../../../drizzle/${file}`, import.meta.url), 'utf8')
    .split('--> statement-breakpoint')
    .map((part) =>
      part
        .split('\n')
        .filter((line) => !line.startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((statement) => statement.startsWith(`${verb} ${table}`));
}

describe.each(DATABASE_KINDS)('segment queries equal the previous compiler on %s', (kind) => {
  let t: TestApp;
  let db: Db;
  let user: SignedInUser;
  const listIds: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    db = t.database.db;
    user = await signUp(t, { verified: true });
    const accountId = user.accountId;
    const rnd = seededRandom(20261126);
    for (const name of ['VIP', 'Novidades', 'Vazia']) {
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`insert into lists (account_id, name) values (${accountId}, ${name}) returning id`,
      );
      listIds.push((row as { id: string }).id);
    }
    const contacts: Array<{ id: string; email: string }> = [];
    const rows = {
      id: [] as string[],
      email: [] as string[],
      name: [] as Array<string | null>,
      fields: [] as string[],
      status: [] as string[],
      created: [] as string[],
    };
    for (let i = 0; i < 240; i++) {
      const id = randomUUID();
      const email = `${rnd.pick(['ana', 'Bruno', 'carla', 'rec'])}${i}@${rnd.pick(['exemplo.com.br', 'loja.com'])}`;
      const fields: Record<string, string> = {};
      if (rnd.chance(0.9)) fields.cidade = rnd.pick(CITIES);
      if (rnd.chance(0.85)) fields.pontos = rnd.pick(POINTS);
      if (rnd.chance(0.85)) fields.nascimento = rnd.pick(BIRTHS);
      if (rnd.chance(0.3)) fields.plano = rnd.pick(['ouro', 'Ouro', 'prata']);
      rows.id.push(id);
      rows.email.push(email.toLowerCase());
      rows.name.push(rnd.pick(NAMES));
      rows.fields.push(JSON.stringify(fields));
      rows.status.push(rnd.pick(STATUSES));
      rows.created.push(rnd.pick(JOINED));
      contacts.push({ id, email: email.toLowerCase() });
    }
    await db.execute(
      sql`insert into contacts (id, account_id, email, name, fields, status, created_at)
          select u.id::uuid, ${accountId}::uuid, u.email, u.name, u.fields::jsonb, u.status, u.created::timestamptz
            from unnest(${pgTextArray(rows.id)}::text[], ${pgTextArray(rows.email)}::text[],
                        ${pgTextArray(rows.name)}::text[], ${pgTextArray(rows.fields)}::text[],
                        ${pgTextArray(rows.status)}::text[], ${pgTextArray(rows.created)}::text[])
                   as u(id, email, name, fields, status, created)`,
    );
    for (const contact of contacts) {
      for (const listId of listIds.slice(0, 2)) {
        if (!rnd.chance(0.5)) continue;
        const status = rnd.pick(['subscribed', 'subscribed', 'unsubscribed', 'pending']);
        await db.execute(
          sql`insert into list_memberships (list_id, contact_id, status) values (${listId}, ${contact.id}, ${status})`,
        );
      }
    }
    // Six sent campaigns a week apart and one still a draft; messages for some contacts in some campaigns.
    const campaignIds: string[] = [];
    for (let k = 0; k < 7; k++) {
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`insert into campaigns (uuid, created_by, name, subject, status, started_at)
            values (${randomUUID()}, ${accountId}, ${`Campanha ${k}`}, 'Oi', ${k === 6 ? 'draft' : 'sent'},
                    ${k === 6 ? null : new Date(Date.UTC(2026, 0, 1 + 7 * k)).toISOString()}) returning id`,
      );
      campaignIds.push((row as { id: string }).id);
    }
    const events = { message: [] as number[], campaign: [] as string[], contact: [] as string[] };
    const eventKinds = { kind: [] as string[], machine: [] as boolean[] };
    for (const campaignId of campaignIds.slice(0, 6)) {
      for (const contact of contacts) {
        if (!rnd.chance(0.6)) continue;
        const status = rnd.pick(['sent', 'sent', 'sent', 'failed', 'queued']);
        const [m] = await queryRows<{ id: number }>(
          db,
          sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at)
              values (${campaignId}, ${accountId}, ${contact.id}, ${contact.email}, ${status},
                      ${randomUUID().replaceAll('-', '')}, ${status === 'sent' ? new Date().toISOString() : null})
              returning id`,
        );
        if (status !== 'sent') continue;
        const count = rnd.chance(0.5) ? 0 : 1 + Math.floor(rnd.next() * 3);
        for (let e = 0; e < count; e++) {
          events.message.push(Number((m as { id: number }).id));
          events.campaign.push(campaignId);
          events.contact.push(contact.id);
          eventKinds.kind.push(rnd.pick(['open', 'open', 'click', 'unsubscribe']));
          eventKinds.machine.push(rnd.chance(0.3));
        }
      }
    }
    // One statement per kind of writer: the tracking recorder writes batches, bounces and unsubscribes one row.
    await db.execute(
      sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine)
          select u.m, u.c::uuid, ${accountId}::uuid, u.p::uuid, u.k, u.x
            from unnest(${pgTextArray(events.message.map(String))}::bigint[], ${pgTextArray(events.campaign)}::text[],
                        ${pgTextArray(events.contact)}::text[], ${pgTextArray(eventKinds.kind)}::text[],
                        ${pgTextArray(eventKinds.machine.map(String))}::boolean[]) as u(m, c, p, k, x)`,
    );
    const [one] = await queryRows<{ message_id: number; campaign_id: string; contact_id: string }>(
      db,
      sql`select id as message_id, campaign_id, contact_id from messages where status = 'sent' limit 1`,
    );
    if (one) {
      await db.execute(
        sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine)
            values (${one.message_id}, ${one.campaign_id}, ${accountId}, ${one.contact_id}, 'open', false)`,
      );
    }
  }, 120_000);

  afterAll(async () => {
    await t.close();
  });

  const ids = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ id: string }>(db, query)).map((r) => r.id).sort();

  /**
   * segment_engagement as a plain evaluation of the events and messages says it should be: per contact, the
   * newest sent campaign (start, then id) with a human open, with a human click, and with a `sent` message to it —
   * computed here in TypeScript.
   */
  const expectedEngagement = async () => {
    const campaigns = new Map(
      (
        await queryRows<{ id: string; started_at: string | null; status: string }>(
          db,
          sql`select id::text, started_at::text, status from campaigns where created_by = ${user.accountId}`,
        )
      ).map((k) => [k.id, k]),
    );
    const events = await queryRows<{ contact_id: string | null; campaign_id: string; kind: string; machine: boolean }>(
      db,
      sql`select contact_id::text, campaign_id::text, kind, machine from message_events
           where account_id = ${user.accountId}
          union all
          select contact_id::text, campaign_id::text, 'delivered', false from messages
           where account_id = ${user.accountId} and status = 'sent'`,
    );
    const startOf = (id: string) => {
      const at = campaigns.get(id)?.started_at;
      return at === null || at === undefined ? Number.NEGATIVE_INFINITY : new Date(at).getTime();
    };
    const newer = (a: string, b: string | undefined) =>
      b === undefined || startOf(a) > startOf(b) || (startOf(a) === startOf(b) && a > b);
    const newest = new Map<string, { open?: string; click?: string; delivered?: string; ever?: boolean }>();
    for (const e of events) {
      if (e.machine || e.contact_id === null || !['open', 'click', 'delivered'].includes(e.kind)) continue;
      const facts = newest.get(e.contact_id) ?? {};
      // Ever opened: a human open of any campaign, sent or not.
      if (e.kind === 'open') {
        facts.ever = true;
        newest.set(e.contact_id, facts);
      }
      if (campaigns.get(e.campaign_id)?.status !== 'sent') continue;
      const kind = e.kind as 'open' | 'click' | 'delivered';
      if (newer(e.campaign_id, facts[kind])) facts[kind] = e.campaign_id;
      newest.set(e.contact_id, facts);
    }
    // Every contact of the account has its row (the contact's segment row, migration 0066), mailed or not.
    const contacts = await queryRows<{ id: string }>(
      db,
      sql`select id::text from contacts where account_id = ${user.accountId}`,
    );
    return contacts
      .map(({ id }) => [id, newest.get(id) ?? {}] as const)
      .map(([contact, f]) => `${contact} ${f.open ?? '-'} ${f.click ?? '-'} ${f.delivered ?? '-'} ${f.ever === true}`)
      .sort();
  };
  const storedEngagement = async () =>
    (
      await queryRows<{ row: string }>(
        db,
        sql`select contact_id::text || ' ' || coalesce(last_opened_campaign_id::text, '-') || ' '
                   || coalesce(last_clicked_campaign_id::text, '-') || ' '
                   || coalesce(last_delivered_campaign_id::text, '-') || ' ' || ever_opened::text as row
              from segment_engagement where account_id = ${user.accountId}`,
      )
    )
      .map((r) => r.row)
      .sort();

  it("segment_engagement holds each contact's newest opened, clicked and delivered sent campaign and whether it ever opened, as the events and messages say, once the sent campaigns are folded", async () => {
    // The trigger wrote the opens and clicks as the events came; the deliveries come with the first fold.
    const recent = await recentSentCampaignIds(db, user.accountId, 10);
    expect(await foldEngagement(db, user.accountId, recent)).toBe(6);
    const expected = await expectedEngagement();
    expect(expected.length).toBeGreaterThan(50);
    const columns = expected.map((r) => r.split(' '));
    expect(columns.some(([, open, click]) => open !== '-' && click === '-')).toBe(true);
    // Mailed contacts who never opened nor clicked have a row too, and openers whose last delivery is newer.
    expect(columns.some(([, open, click, delivered]) => open === '-' && click === '-' && delivered !== '-')).toBe(true);
    // So do contacts never mailed.
    expect(
      columns.some(([, open, click, delivered, ever]) => [open, click, delivered, ever].join() === '-,-,-,false'),
    ).toBe(true);
    expect(columns.some(([, open, , delivered]) => open !== '-' && delivered !== open)).toBe(true);
    expect(await storedEngagement()).toEqual(expected);
  });

  /** Each of the account's segment rows' custom fields (texts, numbers, dates), wherever the row keeps them. */
  const storedFields = async () =>
    (
      await queryRows<{ row: string }>(
        db,
        sql`select g.contact_id::text || ' ' || ${segmentRowFields('texts')}::text || ' '
                   || ${segmentRowFields('numbers')}::text || ' ' || ${segmentRowFields('days')}::text as row
              from segment_engagement g where g.account_id = ${user.accountId}`,
      )
    )
      .map((r) => r.row)
      .sort();

  it("the migrations' backfills build the same segment_engagement from the events, messages and contacts", async () => {
    const before = await storedEngagement();
    const fieldsBefore = await storedFields();
    expect(fieldsBefore.filter((r) => r.includes('"cidade"')).length).toBeGreaterThan(100);
    const statements = [
      ...migrationStatements('0044_segment_engagement.sql', 'segment_engagement'),
      ...migrationStatements('0047_segment_engagement_delivered.sql', 'segment_engagement'),
      ...migrationStatements('0049_segment_engagement_ever_opened.sql', 'segment_engagement'),
      ...migrationStatements('0066_segment_rows.sql', 'segment_engagement'),
    ];
    statements.push(
      ...migrationStatements('0068_segment_field_slots.sql', 'segment_field_slots'),
      ...migrationStatements('0068_segment_field_slots.sql', 'segment_engagement', 'UPDATE'),
    );
    expect(statements).toHaveLength(7);
    await db.execute(sql`delete from segment_engagement_folds`);
    await db.execute(sql`delete from segment_engagement`);
    await db.execute(sql`delete from segment_field_slots`);
    for (const statement of statements) await db.execute(sql.raw(statement));
    expect(await storedEngagement()).toEqual(before);
    expect(await storedFields()).toEqual(fieldsBefore);
  });

  it("the migration's backfill builds the same contact_field_values as the triggers kept", async () => {
    const typed = async () =>
      (
        await queryRows<{ row: string }>(
          db,
          sql`select contact_id::text || ' ' || field || ' ' || coalesce(num::text, '-') || ' ' || coalesce(day, '-') as row
                from contact_field_values where account_id = ${user.accountId}`,
        )
      )
        .map((r) => r.row)
        .sort();
    const before = await typed();
    // Numbers and dates of the generated fields, and some values of neither shape left out.
    expect(before.filter((r) => r.includes(' pontos ')).length).toBeGreaterThan(100);
    expect(before.filter((r) => r.includes(' nascimento ')).length).toBeGreaterThan(100);
    const [statement] = migrationStatements('0050_contact_field_values.sql', 'contact_field_values');
    await db.execute(sql`delete from contact_field_values`);
    await db.execute(sql.raw(statement as string));
    expect(await typed()).toEqual(before);
  });

  it('contact_first_opens holds exactly the contacts with a human open', async () => {
    const expected = await ids(
      sql`select distinct contact_id::text as id from message_events
           where kind = 'open' and not machine and contact_id is not null`,
    );
    const actual = await ids(
      sql`select contact_id::text as id from contact_first_opens where account_id = ${user.accountId}`,
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(actual).toEqual(expected);
  });

  /**
   * Every rendering of `tree` against the previous compiler on the account at `now` (ids, the live count and the
   * preview); resolves the previous compiler's ids.
   */
  const compareTree = async (accountId: string, tree: SegmentGroup, now = new Date()) => {
    const ctx = await segmentContextFor(db, accountId, [tree], recentSentCampaignIds, now);
    const previous = await ids(
      sql`select c.id::text as id from contacts c
           where c.account_id = ${accountId} and ${compilePreviousSegment(tree, ctx)}`,
    );
    const compiled = compileSegment(tree, ctx);
    const joined = await ids(
      sql`select c.id::text as id from contacts c ${compiled.joins}
           where c.account_id = ${accountId} and ${compiled.where}`,
    );
    const predicate = await ids(
      sql`select c.id::text as id from contacts c
           where c.account_id = ${accountId} and ${compileSegmentPredicate(tree, ctx)}`,
    );
    const label = JSON.stringify(tree);
    expect(joined, label).toEqual(previous);
    expect(predicate, label).toEqual(previous);
    expect(await countSegment(db, accountId, tree, recentSentCampaignIds, now), label).toBe(previous.length);
    // The preview: the previous compiler's newest 20, in order (newest first, then the greater id).
    const newest = await queryRows<{ id: string }>(
      db,
      sql`select c.id::text as id from contacts c
           where c.account_id = ${accountId} and ${compilePreviousSegment(tree, ctx)}
           order by c.created_at desc, c.id desc limit 20`,
    );
    const preview = await previewSegment(db, accountId, tree, recentSentCampaignIds, now);
    expect(
      preview.map((c) => c.id),
      label,
    ).toEqual(newest.map((c) => c.id));
    return previous;
  };

  it(`generated trees (${CASES}) select the same contacts through the joins, the predicate and the previous compiler`, async () => {
    const accountId = user.accountId;
    const condition: fc.Arbitrary<SegmentCondition> = fc.oneof(
      fc.record({
        type: fc.constant('field' as const),
        field: fc.constantFrom<Extract<SegmentCondition, { type: 'field' }>['field']>(
          'email',
          'name',
          { custom: 'cidade' },
          { custom: 'plano' },
        ),
        operator: fc.constantFrom(
          'equals',
          'not_equals',
          'contains',
          'not_contains',
          'starts_with',
          'is_empty',
          'is_not_empty',
        ),
        value: fc.constantFrom('são paulo', 'REC', 'a', 'ouro', '%', '_x', 'Ç', '100', '-1', '42-'),
      }) as fc.Arbitrary<SegmentCondition>,
      fc.record({
        type: fc.constant('field' as const),
        field: fc.constant({ custom: 'pontos' }),
        operator: fc.constantFrom('number_eq', 'number_gt', 'number_gte', 'number_lt', 'number_lte'),
        value: fc.constantFrom('10', '10,5', '-3', '250', '0', '999999999999999', '1.5'),
      }) as fc.Arbitrary<SegmentCondition>,
      fc.record({
        type: fc.constant('field' as const),
        field: fc.constant({ custom: 'nascimento' }),
        operator: fc.constantFrom('date_on', 'date_before', 'date_after', 'birthday_this_month'),
        value: fc.constantFrom(
          '1985-02-15',
          '1990-03-01',
          '1985-11-03',
          '2000-02-29',
          '1979-11-30',
          '1990-12-31',
          '1999-12-31',
        ),
      }) as fc.Arbitrary<SegmentCondition>,
      fc.record({
        type: fc.constant('list' as const),
        operator: fc.constantFrom('in', 'not_in'),
        listId: fc.constantFrom(...listIds),
      }) as fc.Arbitrary<SegmentCondition>,
      fc.record({
        type: fc.constant('status' as const),
        operator: fc.constantFrom('is', 'is_not'),
        value: fc.constantFrom('subscribed', 'unsubscribed', 'bounced', 'complained'),
      }) as fc.Arbitrary<SegmentCondition>,
      fc.oneof(
        fc.record({
          type: fc.constant('subscribed_at' as const),
          operator: fc.constantFrom('before', 'after'),
          value: fc.constantFrom(...DATES),
        }),
        fc.record({
          type: fc.constant('subscribed_at' as const),
          operator: fc.constant('in_last_days'),
          value: fc.constantFrom('1', '30', '400', '3000'),
        }),
      ) as fc.Arbitrary<SegmentCondition>,
      fc.record({
        type: fc.constant('engagement' as const),
        operator: fc.constantFrom('opened_any', 'clicked_any', 'opened_none', 'never_opened'),
        campaigns: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
      }) as fc.Arbitrary<SegmentCondition>,
    );
    const group = (depth: number): fc.Arbitrary<SegmentGroup> =>
      fc.record({
        type: fc.constant('group' as const),
        match: fc.constantFrom('all' as const, 'any' as const),
        conditions: fc.array(depth < 3 ? fc.oneof({ weight: 3, arbitrary: condition }, group(depth + 1)) : condition, {
          minLength: 1,
          maxLength: 4,
        }),
      });

    let nonTrivial = 0;
    await fc.assert(
      fc.asyncProperty(group(1), fc.constantFrom(...NOWS), async (tree, nowIso) => {
        const parsed = segmentTreeSchema.safeParse(tree);
        if (!parsed.success) return;
        const previous = await compareTree(accountId, tree, new Date(nowIso));
        if (previous.length > 0 && previous.length < 240) nonTrivial++;
      }),
      { numRuns: CASES, seed: 26 },
    );
    // The generator is not degenerate: most trees select some contacts but not all.
    expect(nonTrivial).toBeGreaterThan(CASES / 3);
  }, 600_000);

  /** Engagement conditions nested in an OU (and beside top-level ones), for the explicit comparisons below. */
  const engagementTrees = (): SegmentGroup[] => {
    const e = (operator: 'opened_any' | 'clicked_any' | 'opened_none' | 'never_opened', campaigns?: number) =>
      ({ type: 'engagement', operator, campaigns }) as SegmentCondition;
    const city = {
      type: 'field',
      field: { custom: 'cidade' },
      operator: 'equals',
      value: 'recife',
    } as SegmentCondition;
    const bounced = { type: 'status', operator: 'is', value: 'bounced' } as SegmentCondition;
    return [
      // The bench's row: one flag whose value without a row is true ("nunca abriu").
      any(city, e('opened_none', 3), e('never_opened')),
      any(e('opened_any', 2), e('clicked_any', 1)),
      any(city, all(e('opened_none', 2), e('never_opened'))),
      any(all(e('opened_any', 1), e('clicked_any', 3), bounced), all(city, e('never_opened')), e('opened_none', 1)),
      // A flag negated by NOT nothing: E of "não abriu" and "abriu" of different windows.
      any(bounced, all(e('opened_none', 1), e('opened_any', 4))),
      // Top-level "nunca abriu" beside nested engagement: the anti-join of first opens and a flag.
      all(e('never_opened'), any(city, e('clicked_any', 2))),
      // A top-level engagement conjunct: the whole row is joined, nested ones read it.
      all(e('opened_any', 3), any(city, e('opened_none', 1), e('never_opened'))),
      all(any(all(any(e('never_opened'), city), e('clicked_any', 5)), bounced)),
      // Several nested groups and no engagement conjunct: the row narrowed to one boolean per test, with a
      // top-level "nunca abriu" among them (true without a row) and the same window in two groups.
      all(
        e('never_opened'),
        any(all(city, e('clicked_any', 2)), all(bounced, e('opened_none', 1)), e('opened_any', 2)),
      ),
      any(
        all(e('opened_any', 2), city),
        all(e('never_opened'), bounced),
        all(e('clicked_any', 1), e('opened_none', 3)),
        all(any(e('opened_none', 2), e('never_opened')), e('clicked_any', 4)),
      ),
    ];
  };

  it('engagement conditions nested in OUs (one set when one group has them, the narrowed row otherwise) select the same contacts', async () => {
    const sizes: number[] = [];
    for (const tree of engagementTrees()) sizes.push((await compareTree(user.accountId, tree)).length);
    // Not degenerate: most select some contacts but not all.
    expect(sizes.filter((n) => n > 0 && n < 240).length).toBeGreaterThan(5);
  });

  it('a count reads a tree that is one set from the set alone, one of the contact’s own columns from contacts, and any other from the segment rows in one scan, and each selects the same contacts', async () => {
    const [a, b] = listIds as [string, string];
    const inList = (listId: string) => ({ type: 'list', operator: 'in', listId }) as SegmentCondition;
    const notIn = (listId: string) => ({ type: 'list', operator: 'not_in', listId }) as SegmentCondition;
    const field = (key: string | 'name' | 'email', operator: string, value?: string) =>
      ({
        type: 'field',
        field: key === 'name' || key === 'email' ? key : { custom: key },
        operator,
        value,
      }) as SegmentCondition;
    const points = (operator: string, value: string) => field('pontos', operator, value);
    const birthday = field('nascimento', 'birthday_this_month');
    const recife = field('cidade', 'starts_with', 'rec');
    const status = (operator: 'is' | 'is_not', value: string) =>
      ({ type: 'status', operator, value }) as SegmentCondition;
    const bounced = status('is', 'bounced');
    const neverOpened = { type: 'engagement', operator: 'never_opened' } as SegmentCondition;
    const opened = (campaigns: number) =>
      ({ type: 'engagement', operator: 'opened_any', campaigns }) as SegmentCondition;
    const clicked = (campaigns: number) =>
      ({ type: 'engagement', operator: 'clicked_any', campaigns }) as SegmentCondition;
    const notOpened = (campaigns: number) =>
      ({ type: 'engagement', operator: 'opened_none', campaigns }) as SegmentCondition;
    const recent = { type: 'subscribed_at', operator: 'in_last_days', value: '30' } as SegmentCondition;
    const dialect = new PgDialect();
    const plan = async (query: ReturnType<typeof sql>) =>
      (await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (verbose, costs off) ${query}`))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    const sizes: number[] = [];

    // A tree that is one set, or the contacts outside one (through groups of one condition): the set alone.
    for (const { tree, outside } of [
      { tree: all(inList(a)), outside: false },
      { tree: any(all(points('number_gt', '10'))), outside: false },
      { tree: all(opened(2)), outside: false },
      { tree: all(notIn(a)), outside: true },
      { tree: any(all(neverOpened)), outside: true },
    ]) {
      const label = JSON.stringify(tree);
      const ctx = await segmentContextFor(db, user.accountId, [tree], recentSentCampaignIds, new Date());
      const counted = compileSegment(tree, ctx, { count: true });
      expect(counted.countSet?.outside, label).toBe(outside);
      expect(await plan(segmentCountQuery(user.accountId, counted)), label).not.toMatch(/on public\.contacts /);
      sizes.push((await compareTree(user.accountId, tree)).length);
    }

    // Every other tree that reads more than the contact's own columns as they are — sets in OUs and Es, "nunca
    // abriu", typed fields parsed below Es, lower-cased texts, engagement anywhere — is one scan of the rows.
    const rowTrees = [
      any(inList(a), birthday),
      any(inList(a), inList(b), birthday, points('number_gt', '200')),
      any(birthday, all(birthday)),
      any(birthday, all(recife, neverOpened)),
      any(birthday, inList(a), bounced),
      any(all(any(inList(b))), notIn(a), recife),
      any(points('number_lte', '250'), points('number_gte', '10'), opened(2)),
      any(points('number_lte', '250'), opened(2), all(recife, clicked(1))),
      any(opened(3), recife),
      any(opened(1), clicked(2), bounced),
      any(opened(4), clicked(1)),
      all(notIn(a), neverOpened),
      all(neverOpened, status('is', 'subscribed')),
      all(notIn(b), all(neverOpened, status('is_not', 'bounced'))),
      any(recife, neverOpened),
      any(recife, notOpened(3), neverOpened),
      any(inList(a), opened(2), neverOpened),
      any(neverOpened, notOpened(2)),
      any(birthday, inList(b), all(neverOpened), all(recife, bounced), points('number_gt', '100')),
      any(recife, bounced),
      any(neverOpened, all(recife, clicked(1))),
      all(birthday, recife),
      any(inList(a), inList(b), bounced),
      all(points('number_gt', '10'), status('is', 'subscribed'), opened(3)),
      all(inList(a), points('number_lte', '250')),
      all(points('number_gte', '10'), inList(b), notOpened(2)),
      all(any(inList(a)), all(status('is_not', 'bounced'), opened(2)), status('is_not', 'unsubscribed'), inList(a)),
      all(inList(a), neverOpened),
      all(opened(3), notIn(b)),
      all(points('number_gt', '10'), all(notIn(a), neverOpened), status('is', 'subscribed')),
      all(opened(3), status('is', 'bounced')),
      all(opened(3), any(inList(a), inList(b))),
      all(opened(3), recent),
      any(
        field('cidade', 'equals', 'Recife'),
        field('cidade', 'starts_with', 'sã'),
        all(status('is', 'subscribed'), field('cidade', 'not_contains', 'o')),
        field('cidade', 'contains', 'rio'),
      ),
      any(
        field('nascimento', 'is_empty'),
        all(status('is_not', 'bounced'), any(field('nascimento', 'date_before', '1990-01-01'), birthday)),
      ),
      any(all(recent, any(points('number_gt', '10'), points('number_lt', '0'))), inList(a)),
      any(
        field('name', 'contains', 'A'),
        all(status('is', 'subscribed'), field('name', 'starts_with', 'b')),
        field('email', 'contains', 'REC'),
        all(status('is_not', 'subscribed'), field('email', 'starts_with', 'ana')),
      ),
      any(all(inList(a), field('cidade', 'equals', 'natal')), field('cidade', 'contains', 'ec'), opened(3)),
      // The same list in and out: nobody.
      all(opened(2), inList(a), notIn(a)),
    ];
    for (const tree of rowTrees) {
      const label = JSON.stringify(tree);
      const ctx = await segmentContextFor(db, user.accountId, [tree], recentSentCampaignIds, new Date());
      const counted = compileSegment(tree, ctx, { count: true });
      expect(counted.countSet, label).toBeUndefined();
      expect(dialect.sqlToQuery(counted.contacts).sql, label).toMatch(/^segment_engagement g cross join lateral/);
      // One scan of segment_engagement: no join, no sub-plan, no parse nor lower() per contact.
      const read = await plan(segmentCountQuery(user.accountId, counted));
      // (A sequential or an index scan: on this small table the planner may walk the account's rows by key.)
      const scanned = [...read.matchAll(/Scan (?:using \w+ )?on public\.(\w+)/g)].map((m) => m[1]);
      expect(scanned, label).toEqual(['segment_engagement']);
      expect(read, label).not.toMatch(/Join|SubPlan|contact_field_number|contact_field_day|lower\(|translate\(/);
      // The preview keeps the table (its walk reads contacts_account_created_idx's order).
      expect(dialect.sqlToQuery(compileSegment(tree, ctx).contacts).sql, label).toBe('contacts c');
      sizes.push((await compareTree(user.accountId, tree)).length);
    }
    expect(sizes.at(-1)).toBe(0);
    // A number or a date read from the e-mail or the name (never typed on write) is parsed from the row's text.
    const parsed = any(all(field('email', 'number_gt', '5')), field('name', 'date_before', '2000-01-01'));
    const parsedCtx = await segmentContextFor(db, user.accountId, [parsed], recentSentCampaignIds, new Date());
    expect(dialect.sqlToQuery(compileSegment(parsed, parsedCtx, { count: true }).contacts).sql).toMatch(
      /^segment_engagement g/,
    );
    await compareTree(user.accountId, parsed);
    // Not degenerate: each selects some contacts but not all (but the list in and out, and the recent openers: none
    // in this data).
    expect(
      sizes.filter((n) => n > 0 && n < 240),
      JSON.stringify(sizes),
    ).toHaveLength(5 + rowTrees.length - 2);

    // A tree that reads only the contact's own columns as they are (statuses, subscription dates, texts compared
    // without lower()) reads the contacts, narrower than the rows.
    for (const tree of [
      any(field('cidade', 'is_empty'), field('nascimento', 'is_not_empty')),
      all(field('name', 'contains', '9'), status('is_not', 'bounced')),
      any(all(recent, field('email', 'starts_with', '12')), bounced),
    ]) {
      const ctx = await segmentContextFor(db, user.accountId, [tree], recentSentCampaignIds, new Date());
      const counted = compileSegment(tree, ctx, { count: true });
      expect(dialect.sqlToQuery(counted.contacts).sql, JSON.stringify(tree)).toBe('contacts c');
      expect(counted.countSet, JSON.stringify(tree)).toBeUndefined();
      await compareTree(user.accountId, tree);
    }
  });

  it('a text value of ASCII digits and punctuation only is compared without lower(), and selects the same contacts', async () => {
    const dialect = new PgDialect();
    const sizes: number[] = [];
    for (const field of ['name', 'email', { custom: 'cidade' }] as const) {
      for (const operator of ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with'] as const) {
        for (const value of ['100', '-100', '12-', ' 42- ', '%_', '']) {
          const tree = all({ type: 'field', field, operator, value } as SegmentCondition);
          const ctx = await segmentContextFor(db, user.accountId, [tree], recentSentCampaignIds, new Date());
          const where = dialect.sqlToQuery(compileSegment(tree, ctx).where).sql;
          expect(where, JSON.stringify(tree)).not.toContain('lower(');
          sizes.push((await compareTree(user.accountId, tree)).length);
        }
      }
    }
    // Not degenerate: some select a few contacts.
    expect(sizes.filter((n) => n > 0 && n < 240).length).toBeGreaterThan(10);
    // A value with a letter keeps lower(): "K" matches the Kelvin sign's lower case on PostgreSQL.
    const lettered = all({
      type: 'field',
      field: { custom: 'cidade' },
      operator: 'contains',
      value: 'k-1',
    } as SegmentCondition);
    const ctx = await segmentContextFor(db, user.accountId, [lettered], recentSentCampaignIds, new Date());
    expect(dialect.sqlToQuery(compileSegment(lettered, ctx).where).sql).toContain('lower(');
    await compareTree(user.accountId, lettered);
  });

  it('engagement inside OUs agrees with an empty campaign window and with contacts never mailed', async () => {
    const other = await signUp(t, { verified: true });
    const accountId = other.accountId;
    await db.execute(
      sql`insert into contacts (account_id, email, fields, status)
          select ${accountId}::uuid, 'x' || g || '@exemplo.com.br',
                 jsonb_build_object('cidade', case when g % 3 = 0 then 'Recife' else 'Natal' end),
                 case when g % 7 = 0 then 'bounced' else 'subscribed' end
            from generate_series(1, 30) g`,
    );
    // No sent campaign: every "últimas N" window is empty, and no contact has a segment_engagement row.
    const sizes: number[] = [];
    for (const tree of engagementTrees()) sizes.push((await compareTree(accountId, tree)).length);
    // One campaign sent to a third of the contacts (one failed), opened by two of them and clicked by one: the
    // others were never mailed and have no row.
    const [campaign] = await queryRows<{ id: string }>(
      db,
      sql`insert into campaigns (uuid, created_by, name, subject, status, started_at)
          values (${randomUUID()}, ${accountId}, 'Única', 'Oi', 'sent', '2026-03-01T00:00:00Z') returning id`,
    );
    const campaignId = (campaign as { id: string }).id;
    const mailed = await queryRows<{ id: number; contact_id: string }>(
      db,
      sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at)
          select ${campaignId}, ${accountId}, c.id, c.email, case when c.email = 'x3@exemplo.com.br' then 'failed' else 'sent' end,
                 md5(c.id::text), now()
            from contacts c where c.account_id = ${accountId} and right(split_part(c.email, '@', 1), 1) in ('1', '3', '5')
          returning id, contact_id`,
    );
    expect(mailed.length).toBeGreaterThan(5);
    const [a, b] = mailed.filter((m) => m.contact_id !== undefined);
    await db.execute(
      sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine)
          values (${a?.id}, ${campaignId}, ${accountId}, ${a?.contact_id}, 'open', false),
                 (${a?.id}, ${campaignId}, ${accountId}, ${a?.contact_id}, 'click', false),
                 (${b?.id}, ${campaignId}, ${accountId}, ${b?.contact_id}, 'open', false)`,
    );
    for (const tree of engagementTrees()) sizes.push((await compareTree(accountId, tree)).length);
    expect(sizes.filter((n) => n > 0 && n < 30).length).toBeGreaterThan(5);
  });

  it('a campaign sent after earlier counts is folded in by the next count that needs it, and only once; events after it is sent and erased contacts too', async () => {
    const accountId = user.accountId;
    const engagement = (operator: 'opened_any' | 'clicked_any' | 'opened_none', campaigns: number): SegmentGroup => ({
      type: 'group',
      match: 'any',
      conditions: [
        { type: 'engagement', operator, campaigns },
        { type: 'status', operator: 'is', value: 'bounced' },
      ],
    });
    // "Nunca abriu" beside a condition that reads segment_engagement: its ever_opened column.
    const neverOpenedOr = (n: number): SegmentGroup => ({
      type: 'group',
      match: 'any',
      conditions: [
        { type: 'engagement', operator: 'never_opened' },
        { type: 'engagement', operator: 'clicked_any', campaigns: n },
      ],
    });
    const compare = async () => {
      for (const operator of ['opened_none', 'opened_any', 'clicked_any', 'never_opened'] as const) {
        // Beside another condition, and alone (a count of its set, or of the contacts outside it).
        const trees = [1, 2, 3].flatMap(
          (n): Array<[number, SegmentGroup]> => [
            [n, operator === 'never_opened' ? neverOpenedOr(n) : engagement(operator, n)],
            [n, { type: 'group', match: 'all', conditions: [{ type: 'engagement', operator, campaigns: n }] }],
          ],
        );
        for (const [n, tree] of trees) {
          const ctx = await segmentContextFor(db, accountId, [tree], recentSentCampaignIds, new Date());
          const previous = await ids(
            sql`select c.id::text as id from contacts c
                 where c.account_id = ${accountId} and ${compilePreviousSegment(tree, ctx)}`,
          );
          expect(await countSegment(db, accountId, tree, recentSentCampaignIds), `${operator} ${n}`).toBe(
            previous.length,
          );
          const predicate = await ids(
            sql`select c.id::text as id from contacts c
                 where c.account_id = ${accountId} and ${compileSegmentPredicate(tree, ctx)}`,
          );
          expect(predicate, `${operator} ${n}`).toEqual(previous);
        }
      }
    };
    /** One insert of events (a recorder's batch): per contact, a kind and whether it was a machine's. */
    const insertEvents = async (campaignId: string, events: Array<[{ id: string }, 'open' | 'click', boolean]>) => {
      await db.execute(
        sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine)
            select m.id, m.campaign_id, m.account_id, m.contact_id, u.k, u.x
              from unnest(${pgTextArray(events.map(([c]) => c.id))}::uuid[], ${pgTextArray(events.map(([, k]) => k))}::text[],
                          ${pgTextArray(events.map(([, , x]) => String(x)))}::boolean[]) as u(p, k, x)
              join messages m on m.campaign_id = ${campaignId} and m.contact_id = u.p`,
      );
    };
    await compare();
    // The draft starts sending to the first 30 contacts (5 of them failed); opens and clicks arrive while it
    // sends — the trigger leaves them to the fold, since the campaign is not sent yet.
    const [draft] = await queryRows<{ id: string }>(
      db,
      sql`update campaigns set status = 'sending', started_at = '2026-06-01T00:00:00Z'
           where created_by = ${accountId} and status = 'draft' returning id`,
    );
    const campaignId = (draft as { id: string }).id;
    const first = await queryRows<{ id: string; email: string }>(
      db,
      sql`select id, email from contacts where account_id = ${accountId} order by email limit 40`,
    );
    for (const [i, contact] of first.slice(0, 30).entries()) {
      await db.execute(
        sql`insert into messages (campaign_id, account_id, contact_id, email, status, token)
            values (${campaignId}, ${accountId}, ${contact.id}, ${contact.email}, ${i < 5 ? 'failed' : 'sent'},
                    ${randomUUID().replaceAll('-', '')})`,
      );
    }
    const c = first as Array<{ id: string }>;
    await insertEvents(campaignId, [
      [c[5], 'open', false],
      [c[6], 'open', true],
      [c[7], 'click', false],
      [c[8], 'click', true],
      [c[8], 'open', true],
      [c[9], 'open', false],
      [c[9], 'click', false],
    ] as Array<[{ id: string }, 'open' | 'click', boolean]>);
    // A recipient who never opened anything opens this campaign while it is still sending: "nunca abriu" no
    // longer selects it, though no sent campaign says it opened.
    const [firstOpener] = await queryRows<{ id: string }>(
      db,
      sql`select m.contact_id as id from messages m
           where m.campaign_id = ${campaignId} and m.status = 'sent'
             and not exists (select 1 from message_events e where e.contact_id = m.contact_id and e.kind = 'open'
                              and not e.machine)
           order by m.contact_id limit 1`,
    );
    expect(firstOpener).toBeDefined();
    await insertEvents(campaignId, [[firstOpener as { id: string }, 'open', false]]);
    await compare();
    expect((await storedEngagement()).find((row) => row.startsWith((firstOpener as { id: string }).id))).toMatch(
      /^\S+ - \S+ \S+ true$/,
    );
    // Still sending: no fact names it yet.
    expect(await storedEngagement()).toEqual(await expectedEngagement());
    expect((await storedEngagement()).filter((row) => row.includes(campaignId))).toEqual([]);
    await db.execute(sql`update campaigns set status = 'sent' where id = ${campaignId}`);
    await compare();
    expect(await storedEngagement()).toEqual(await expectedEngagement());
    expect((await storedEngagement()).filter((row) => row.includes(campaignId)).length).toBeGreaterThan(2);
    // Events arriving after it is sent, in batches mixing human and machine ones, some for contacts already
    // folded: the trigger writes them.
    await insertEvents(campaignId, [
      [c[10], 'open', false],
      [c[11], 'open', true],
      [c[12], 'click', false],
      [c[5], 'click', false],
      [c[6], 'open', true],
    ] as Array<[{ id: string }, 'open' | 'click', boolean]>);
    const [older] = await queryRows<{ id: string }>(
      db,
      sql`select campaign_id as id from messages where account_id = ${accountId} and campaign_id <> ${campaignId}
           and status = 'sent' group by campaign_id order by count(*) desc limit 1`,
    );
    const olderRecipients = await queryRows<{ id: string }>(
      db,
      sql`select contact_id as id from messages where campaign_id = ${older?.id} and status = 'sent' limit 6`,
    );
    await insertEvents(
      (older as { id: string }).id,
      olderRecipients.map((r, i) => [r, i % 2 === 0 ? 'open' : 'click', i === 5]),
    );
    await compare();
    expect(await storedEngagement()).toEqual(await expectedEngagement());
    const folded = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from segment_engagement_folds where campaign_id = ${campaignId}`,
    );
    expect(folded[0]?.n).toBe(1);
    // Erased contacts (their events stay, without a contact to count): their engagement rows go with them, so the
    // counts that read those rows alone still agree.
    const rowsOfNoContact = async (table: 'segment_engagement' | 'contact_first_opens') =>
      queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from ${sql.raw(table)} g
             where not exists (select 1 from contacts c where c.id = g.contact_id)`,
      );
    const erased = [c[5], c[9], c[10], c[12]] as Array<{ id: string }>;
    expect(
      await queryRows(
        db,
        sql`select 1 from segment_engagement where contact_id = any(${pgTextArray(erased.map((e) => e.id))}::uuid[])`,
      ),
    ).not.toHaveLength(0);
    for (const contact of erased) await eraseContact(db, accountId, contact.id, async () => {});
    // And contacts deleted together (the bulk action, the API's DELETE).
    expect(await deleteContacts(db, accountId, [(c[7] as { id: string }).id, (c[8] as { id: string }).id])).toBe(2);
    expect(await rowsOfNoContact('segment_engagement')).toEqual([{ n: 0 }]);
    expect(await rowsOfNoContact('contact_first_opens')).toEqual([{ n: 0 }]);
    await compare();
    // Their messages' opens and clicks still arrive, and a campaign sent to a contact erased before its fold:
    // neither writes a row for a contact that no longer exists.
    await insertEvents(campaignId, [
      [c[5], 'open', false],
      [c[9], 'click', false],
      [c[10], 'open', false],
    ] as Array<[{ id: string }, 'open' | 'click', boolean]>);
    const [late] = await queryRows<{ id: string }>(
      db,
      sql`insert into campaigns (uuid, created_by, name, subject, status, started_at)
          values (${randomUUID()}, ${accountId}, 'Depois', 'Oi', 'sending', '2026-07-01T00:00:00Z') returning id`,
    );
    const lateId = (late as { id: string }).id;
    const lateRecipients = first.slice(30, 36);
    for (const contact of lateRecipients) {
      await db.execute(
        sql`insert into messages (campaign_id, account_id, contact_id, email, status, token)
            values (${lateId}, ${accountId}, ${contact.id}, ${contact.email}, 'sent', ${randomUUID().replaceAll('-', '')})`,
      );
    }
    await insertEvents(
      lateId,
      lateRecipients.slice(0, 3).map((r) => [r, 'open', false]),
    );
    await eraseContact(db, accountId, (lateRecipients[0] as { id: string }).id, async () => {});
    await db.execute(sql`update campaigns set status = 'sent' where id = ${lateId}`);
    await compare();
    expect(await rowsOfNoContact('segment_engagement')).toEqual([{ n: 0 }]);
    expect(
      await queryRows(db, sql`select 1 from segment_engagement where last_delivered_campaign_id = ${lateId}`),
    ).toHaveLength(5);
  });
});

describe.each(DATABASE_KINDS)('the engagement rows migration on %s', (kind) => {
  it('drops the rows of contacts deleted before it and keeps the others', async () => {
    const database = await createDatabaseBeforeMigration(kind, '_engagement_rows_follow_contacts');
    try {
      const db = database.db;
      const accountId = await insertAccountRow(db);
      const [kept] = await queryRows<{ id: string }>(
        db,
        sql`insert into contacts (account_id, email, status) values (${accountId}, 'a@x.com', 'subscribed') returning id`,
      );
      const gone = randomUUID();
      for (const contactId of [kept?.id, gone]) {
        await db.execute(
          sql`insert into segment_engagement (account_id, contact_id, ever_opened) values (${accountId}, ${contactId}, true)`,
        );
        await db.execute(
          sql`insert into contact_first_opens (account_id, contact_id, first_opened_at) values (${accountId}, ${contactId}, now())`,
        );
      }
      await database.migrate();
      const rows = await queryRows<{ contact_id: string }>(
        db,
        sql`select contact_id::text from segment_engagement union all select contact_id::text from contact_first_opens`,
      );
      expect(rows.map((r) => r.contact_id)).toEqual([kept?.id, kept?.id]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
