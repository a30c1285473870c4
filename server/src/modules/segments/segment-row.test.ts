import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { consentLinksFrom } from '../../app';
import { type Db, queryRows } from '../../db/database';
import { markContactUndeliverable } from '../contacts/contact-status';
import { findImport, startImport, uploadImport } from '../imports/import-files';
import { runImport } from '../imports/run-import';
import { foldEngagement } from './segment-engagement';
import { SLOTTED_KEY_IN_JSONB, segmentRowFields } from './testing/segment-row-fields';

/**
 * segment_engagement as the contact's segment row (migration 0066, ADR 0043): one row per existing contact, whose
 * contact columns (status, creation, lower-cased e-mail and name, field texts, typed fields, subscribed lists) the
 * triggers keep in the writer's transaction. After each real write path — the dashboard's contact and list routes,
 * the bulk actions, the CSV import, the public form and its double opt-in confirmation, the one-click unsubscribe
 * and the preference centre, a bounce, erasure, account deletion — the table must equal a recomputation from
 * contacts and list_memberships (`differences`), and the engagement facts must survive the contact's own writes.
 */

/** A contact's segment row as the source tables say it should be, beside the stored one; each row that differs. */
const ORACLE = sql`
  with expected as (
    select c.id as contact_id, c.account_id, c.status as contact_status, c.created_at as contact_created_at,
           lower(c.email) as email_lower, lower(coalesce(c.name, '')) as name_lower,
           coalesce((select jsonb_object_agg(f.key, lower(f.value)) from jsonb_each_text(c.fields) f),
                    '{}'::jsonb) as field_texts, false as slotted_key_in_jsonb,
           coalesce((select jsonb_object_agg(f.key, to_jsonb(contact_field_number(f.value)))
                       from jsonb_each_text(c.fields) f where contact_field_number(f.value) is not null),
                    '{}'::jsonb) as field_numbers,
           coalesce((select jsonb_object_agg(f.key, to_jsonb(contact_field_day(f.value)))
                       from jsonb_each_text(c.fields) f where contact_field_day(f.value) is not null),
                    '{}'::jsonb) as field_days,
           coalesce((select array_agg(m.list_id order by m.list_id) from list_memberships m
                      where m.contact_id = c.id and m.status = 'subscribed'), '{}'::uuid[]) as list_ids
      from contacts c),
  actual as (
    select g.contact_id, g.account_id, g.contact_status, g.contact_created_at, g.email_lower, g.name_lower,
           ${segmentRowFields('texts')} as field_texts, ${SLOTTED_KEY_IN_JSONB} as slotted_key_in_jsonb,
           ${segmentRowFields('numbers')} as field_numbers, ${segmentRowFields('days')} as field_days, g.list_ids
      from segment_engagement g)
  select coalesce(e.contact_id, a.contact_id)::text as contact_id, to_jsonb(e) as expected, to_jsonb(a) as actual
    from expected e full join actual a on a.contact_id = e.contact_id
   where to_jsonb(e) is distinct from to_jsonb(a)
   order by 1`;

interface SegmentRow {
  account_id: string;
  contact_status: string | null;
  same_created_at: boolean;
  email_lower: string | null;
  name_lower: string | null;
  field_texts: Record<string, string>;
  field_numbers: Record<string, number>;
  field_days: Record<string, string>;
  list_ids: string[];
  last_opened_campaign_id: string | null;
  last_opened_campaign_at: string | null;
  last_clicked_campaign_id: string | null;
  last_clicked_campaign_at: string | null;
  last_delivered_campaign_id: string | null;
  last_delivered_campaign_at: string | null;
  ever_opened: boolean;
}

describe.each(DATABASE_KINDS)("the contact's segment row on %s", (kind) => {
  let t: TestApp;
  let db: Db;
  let a: SignedInUser;
  let b: SignedInUser;
  /** Contact ids by the local part of their first address (`outra` is account B's). */
  const ids = {
    ana: '',
    bruno: '',
    carla: '',
    dora: '',
    eva: '',
    outra: '',
    flavia: '',
    gil: '',
    helena: '',
    joana: '',
  };
  type Who = keyof typeof ids;
  let vip = '';
  let news = '';
  let dupla = '';

  const json = { 'content-type': 'application/json' };
  const send = async (
    method: 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    expected = method === 'POST' && !url.includes('/bulk') && !url.endsWith('/erase') ? 201 : 200,
    user = a,
  ) => {
    const res = await t.app.inject({
      method,
      url,
      headers: payload === undefined ? user.headers : { ...user.headers, ...json },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(expected);
    return res.body ? res.json() : null;
  };
  const createContact = async (local: string, body: Record<string, unknown> = {}, user = a) =>
    (await send('POST', '/api/contacts', { email: `${local}@exemplo.com.br`, ...body }, 201, user)).id as string;
  const bulk = (action: string, contactIds: string[], listId?: string) =>
    send('POST', '/api/contacts/bulk', { action, ids: contactIds, ...(listId ? { listId } : {}) });

  /** Every row of segment_engagement that differs from the recomputation (missing, extra or another value). */
  const differences = () => queryRows<{ contact_id: string; expected: unknown; actual: unknown }>(db, ORACLE);
  const expectInSync = async (after: string) => {
    expect(await differences(), `segment rows after ${after}`).toEqual([]);
  };
  const rowOf = async (contactId: string): Promise<SegmentRow | undefined> => {
    const [row] = await queryRows<SegmentRow>(
      db,
      sql`select g.account_id::text, g.contact_status, g.contact_created_at = c.created_at as same_created_at,
                 g.email_lower, g.name_lower, ${segmentRowFields('texts')} as field_texts,
                 ${segmentRowFields('numbers')} as field_numbers, ${segmentRowFields('days')} as field_days,
                 to_jsonb(g.list_ids) as list_ids,
                 g.last_opened_campaign_id::text, g.last_opened_campaign_at::text,
                 g.last_clicked_campaign_id::text, g.last_clicked_campaign_at::text,
                 g.last_delivered_campaign_id::text, g.last_delivered_campaign_at::text, g.ever_opened
            from segment_engagement g left join contacts c on c.id = g.contact_id
           where g.contact_id = ${contactId}`,
    );
    return row;
  };
  const row = async (contactId: string): Promise<SegmentRow> => {
    const found = await rowOf(contactId);
    expect(found, `segment row of ${contactId}`).toBeDefined();
    return found as SegmentRow;
  };
  const rowsOfAccount = async (accountId: string) =>
    Number(
      (
        await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from segment_engagement where account_id = ${accountId}`,
        )
      )[0]?.n,
    );
  /** The account's field slots, in slot order. */
  const fieldSlotsOf = (accountId: string) =>
    queryRows<{ key: string; slot: number }>(
      db,
      sql`select key, slot from segment_field_slots where account_id = ${accountId} order by slot`,
    );
  const sorted = (...listIds: string[]) => [...listIds].sort();
  const engagementOf = (r: SegmentRow) => ({
    last_opened_campaign_id: r.last_opened_campaign_id,
    last_opened_campaign_at: r.last_opened_campaign_at,
    last_clicked_campaign_id: r.last_clicked_campaign_id,
    last_clicked_campaign_at: r.last_clicked_campaign_at,
    last_delivered_campaign_id: r.last_delivered_campaign_id,
    last_delivered_campaign_at: r.last_delivered_campaign_at,
    ever_opened: r.ever_opened,
  });
  const NO_ENGAGEMENT = {
    last_opened_campaign_id: null,
    last_opened_campaign_at: null,
    last_clicked_campaign_id: null,
    last_clicked_campaign_at: null,
    last_delivered_campaign_id: null,
    last_delivered_campaign_at: null,
    ever_opened: false,
  };

  /** A sent campaign of account A (on `listIds`) and one `sent` message of it to each contact named. */
  const sentCampaign = async (startedAt: string, listIds: string[], to: Who[]) => {
    const [k] = await queryRows<{ id: string }>(
      db,
      sql`insert into campaigns (uuid, created_by, name, subject, status, started_at, include_list_ids)
          values (${randomUUID()}, ${a.accountId}, 'Campanha', 'Oi', 'sent', ${startedAt},
                  ${`{${listIds.join(',')}}`}::uuid[]) returning id`,
    );
    const campaignId = (k as { id: string }).id;
    const messages: Partial<Record<Who, { id: number; token: string }>> = {};
    for (const who of to) {
      const token = randomBytes(20).toString('hex');
      const [m] = await queryRows<{ id: number }>(
        db,
        sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at)
            values (${campaignId}, ${a.accountId}, ${ids[who]}, ${`${who}@exemplo.com.br`}, 'sent', ${token}, now())
            returning id`,
      );
      messages[who] = { id: Number((m as { id: number }).id), token };
    }
    return { campaignId, messages };
  };
  const humanEvent = async (campaignId: string, who: Who, messageId: number, kind: 'open' | 'click') => {
    await db.execute(
      sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine)
          values (${messageId}, ${campaignId}, ${a.accountId}, ${ids[who]}, ${kind}, false)`,
    );
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    db = t.database.db;
    a = await signUp(t, { verified: true });
    b = await signUp(t, { verified: true });
    vip = (await send('POST', '/api/lists', { name: 'VIP' })).id;
    news = (await send('POST', '/api/lists', { name: 'Novidades' })).id;
    dupla = (await send('POST', '/api/lists', { name: 'Confirmada', optIn: 'double' })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creating contacts with and without name and fields gives each its row; no other contact has one', async () => {
    await expectInSync('sign-up');
    ids.ana = await createContact('ana', {
      name: 'Ana SOUZA',
      fields: { cidade: 'São Paulo', pontos: '12,5', nascimento: '05/03/1990' },
      listIds: [vip, news],
    });
    ids.bruno = await createContact('bruno');
    ids.carla = await createContact('carla', { name: 'Carla Dias', fields: { plano: 'Ouro', idade: '-7' } });
    ids.dora = await createContact('dora', {
      fields: { aniversario: '2001-13-45T10:00', codigo: '007' },
      listIds: [vip],
    });
    ids.eva = await createContact('eva', { name: 'Eva', status: 'unsubscribed' });
    // Another account's contact with the same address has its own row.
    ids.outra = await createContact('ana', { name: 'Outra Ana', fields: { cidade: 'Recife' } }, b);
    await expectInSync('creating contacts');
    expect(await rowsOfAccount(a.accountId)).toBe(5);
    expect(await rowsOfAccount(b.accountId)).toBe(1);

    const ana = await row(ids.ana);
    expect(ana).toMatchObject({
      account_id: a.accountId,
      contact_status: 'subscribed',
      same_created_at: true,
      email_lower: 'ana@exemplo.com.br',
      name_lower: 'ana souza',
      field_texts: { cidade: 'são paulo', pontos: '12,5', nascimento: '05/03/1990' },
      field_numbers: { pontos: 12.5 },
      field_days: { nascimento: '1990-03-05' },
      list_ids: sorted(vip, news),
    });
    expect(engagementOf(ana)).toEqual(NO_ENGAGEMENT);
    expect(await row(ids.bruno)).toMatchObject({
      contact_status: 'subscribed',
      name_lower: '',
      field_texts: {},
      field_numbers: {},
      field_days: {},
      list_ids: [],
    });
    expect(await row(ids.carla)).toMatchObject({
      name_lower: 'carla dias',
      field_texts: { plano: 'ouro', idade: '-7' },
      field_numbers: { idade: -7 },
      field_days: {},
    });
    // A date written AAAA-MM-DD[…] is its first ten characters, as written; "007" is the number 7.
    expect(await row(ids.dora)).toMatchObject({
      field_texts: { aniversario: '2001-13-45t10:00', codigo: '007' },
      field_numbers: { codigo: 7 },
      field_days: { aniversario: '2001-13-45' },
      list_ids: [vip],
    });
    expect(await row(ids.eva)).toMatchObject({ contact_status: 'unsubscribed', name_lower: 'eva', list_ids: [] });
    expect(await row(ids.outra)).toMatchObject({ account_id: b.accountId, field_texts: { cidade: 'recife' } });
  });

  it("updating a contact's fields, status, e-mail and name updates its row", async () => {
    // A key added, one removed, a number that becomes text.
    await send('PATCH', `/api/contacts/${ids.ana}`, {
      fields: { cidade: 'São Paulo', pontos: 'muitos', plano: 'Prata' },
    });
    await expectInSync('updating fields');
    expect(await row(ids.ana)).toMatchObject({
      field_texts: { cidade: 'são paulo', pontos: 'muitos', plano: 'prata' },
      field_numbers: {},
      field_days: {},
      list_ids: sorted(vip, news),
    });
    // Every field removed.
    await send('PATCH', `/api/contacts/${ids.carla}`, { fields: {} });
    expect(await row(ids.carla)).toMatchObject({ field_texts: {}, field_numbers: {}, field_days: {} });
    // Name and e-mail.
    await send('PATCH', `/api/contacts/${ids.bruno}`, { name: 'Bruno LIMA', email: 'Bruno.Lima@Exemplo.com.br' });
    await expectInSync('changing a name and an e-mail');
    expect(await row(ids.bruno)).toMatchObject({ name_lower: 'bruno lima', email_lower: 'bruno.lima@exemplo.com.br' });
    await send('PATCH', `/api/contacts/${ids.bruno}`, { name: null });
    expect(await row(ids.bruno)).toMatchObject({ name_lower: '' });
    // Unsubscribed by the dashboard: the status, and every list left.
    await send('PATCH', `/api/contacts/${ids.dora}`, { status: 'unsubscribed' });
    await expectInSync('unsubscribing a contact');
    expect(await row(ids.dora)).toMatchObject({ contact_status: 'unsubscribed', list_ids: [] });
    // A hard bounce (the bounces module's status change).
    await markContactUndeliverable(db, a.accountId, ids.carla, 'bounced');
    await expectInSync('a bounce');
    expect(await row(ids.carla)).toMatchObject({ contact_status: 'bounced' });
    // A write that changes none of the row's columns leaves it as it was.
    const before = await row(ids.ana);
    await send('PATCH', `/api/contacts/${ids.ana}`, { consentSource: 'balcão da loja' });
    expect(await row(ids.ana)).toEqual(before);
  });

  it('joining two lists, leaving one, a membership removed and a list deleted update list_ids', async () => {
    await bulk('add_to_list', [ids.bruno], news);
    await bulk('add_to_list', [ids.bruno], vip);
    await expectInSync('joining two lists');
    expect((await row(ids.bruno)).list_ids).toEqual(sorted(vip, news));

    // One-click unsubscribe from a message of a campaign on VIP: Bruno leaves VIP only and stays subscribed.
    const { messages } = await sentCampaign('2026-01-05T12:00:00Z', [vip], ['bruno', 'ana']);
    const oneClick = await t.app.inject({
      method: 'POST',
      url: `/u/${messages.bruno?.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    await expectInSync('a one-click unsubscribe');
    expect(await row(ids.bruno)).toMatchObject({ contact_status: 'subscribed', list_ids: [news] });

    // The preference centre: back on VIP (an update of the membership), then off both (status follows the lists).
    const preferences = async (body: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/u/${messages.bruno?.token}/preferences`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await preferences(`list=${vip}&list=${news}`);
    await expectInSync('the preference centre (back on a list)');
    expect(await row(ids.bruno)).toMatchObject({ contact_status: 'subscribed', list_ids: sorted(vip, news) });
    await preferences('');
    await expectInSync('the preference centre (off every list)');
    expect(await row(ids.bruno)).toMatchObject({ contact_status: 'unsubscribed', list_ids: [] });

    // Removing Ana's membership of Novidades (the membership row goes).
    await bulk('remove_from_list', [ids.ana], news);
    await expectInSync('removing a membership');
    expect((await row(ids.ana)).list_ids).toEqual([vip]);

    // Deleting a list takes it out of every row that had it.
    await bulk('add_to_list', [ids.ana], news);
    const flavia = await createContact('flavia', { listIds: [news, vip] });
    ids.flavia = flavia;
    expect((await row(flavia)).list_ids).toEqual(sorted(vip, news));
    await send('DELETE', `/api/lists/${news}`, undefined, 204);
    await expectInSync('deleting a list');
    expect((await row(ids.ana)).list_ids).toEqual([vip]);
    expect((await row(flavia)).list_ids).toEqual([vip]);
  });

  it('the public form and its double opt-in confirmation: pending is not subscribed, the confirmation is', async () => {
    const email = 'gil@exemplo.com.br';
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/s/${dupla}`,
      remoteAddress: '192.0.2.44',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://site-do-cliente.example' },
      payload: new URLSearchParams({ nome: 'Gil Gomes', email, consentimento: 'sim' }).toString(),
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const [created] = await queryRows<{ id: string }>(
      db,
      sql`select id from contacts where account_id = ${a.accountId} and email = ${email}`,
    );
    ids.gil = (created as { id: string }).id;
    await expectInSync('a form submission on a double opt-in list');
    expect(await row(ids.gil)).toMatchObject({ name_lower: 'gil gomes', list_ids: [] });

    let link: string | undefined;
    for (let i = 0; i < 100 && !link; i++) {
      const mail = (await t.sentMail()).find((m) => m.to.includes(email));
      link = /https?:\/\/[^\s]+\/s\/confirm\?token=[^\s]+/.exec(mail?.text ?? '')?.[0];
      if (!link) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(link, 'the confirmation e-mail').toBeTruthy();
    const token = new URL(link as string).searchParams.get('token') as string;
    const confirmed = await t.app.inject({ url: `/s/confirm?token=${encodeURIComponent(token)}` });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await expectInSync('a double opt-in confirmation');
    expect(await row(ids.gil)).toMatchObject({ contact_status: 'subscribed', list_ids: [dupla] });
  });

  it('a CSV import creates contacts and updates existing ones, onto a list', async () => {
    const csv =
      'email;nome;cidade;pontos;nascimento\n' +
      'helena@exemplo.com.br;Helena Prado;Niterói;3;1999-12-31\n' +
      'flavia@exemplo.com.br;Flávia ÁVILA;Olinda;7,25;\n' +
      'ivo@exemplo.com.br;;;;\n';
    const up = await uploadImport(db, a.accountId, Readable.from([Buffer.from(csv)]), 'contatos.csv');
    await startImport(db, a.accountId, up.importId, {
      mapping: {
        email: 'email',
        nome: 'name',
        cidade: 'field:cidade',
        pontos: 'field:pontos',
        nascimento: 'field:nascimento',
      },
      listId: vip,
      legalBasis: 'consent',
      consentSource: 'planilha da loja',
      updateExisting: true,
    });
    await runImport(db, up.importId, consentLinksFrom(t.config), undefined, { batchSize: 2 });
    expect(await findImport(db, a.accountId, up.importId)).toMatchObject({ status: 'done', inserted: 2, updated: 1 });
    await expectInSync('a CSV import');
    const [helena] = await queryRows<{ id: string }>(
      db,
      sql`select id from contacts where account_id = ${a.accountId} and email = 'helena@exemplo.com.br'`,
    );
    ids.helena = (helena as { id: string }).id;
    expect(await row(ids.helena)).toMatchObject({
      name_lower: 'helena prado',
      field_texts: { cidade: 'niterói', pontos: '3', nascimento: '1999-12-31' },
      field_numbers: { pontos: 3 },
      field_days: { nascimento: '1999-12-31' },
      list_ids: [vip],
    });
    expect(await row(ids.flavia)).toMatchObject({
      name_lower: 'flávia ávila',
      field_texts: { cidade: 'olinda', pontos: '7,25' },
      field_numbers: { pontos: 7.25 },
      list_ids: [vip],
    });
  });

  it("engagement facts survive the contact's own writes; a contact created later starts with none", async () => {
    const { campaignId, messages } = await sentCampaign('2026-02-01T12:00:00Z', [vip], ['ana', 'flavia', 'helena']);
    // Opens and clicks come by the trigger on message_events; the deliveries by the campaign's fold.
    await humanEvent(campaignId, 'ana', messages.ana?.id as number, 'open');
    await humanEvent(campaignId, 'flavia', messages.flavia?.id as number, 'click');
    expect(await foldEngagement(db, a.accountId, [campaignId])).toBe(1);
    await expectInSync('opens, clicks and a fold');
    const ana = await row(ids.ana);
    expect(ana).toMatchObject({
      last_opened_campaign_id: campaignId,
      last_clicked_campaign_id: null,
      last_delivered_campaign_id: campaignId,
      ever_opened: true,
      name_lower: 'ana souza',
    });
    expect(ana.last_opened_campaign_at).not.toBeNull();
    expect(await row(ids.flavia)).toMatchObject({
      last_opened_campaign_id: null,
      last_clicked_campaign_id: campaignId,
      last_delivered_campaign_id: campaignId,
      ever_opened: false,
    });
    expect(await row(ids.helena)).toMatchObject({ last_delivered_campaign_id: campaignId, ever_opened: false });
    // Bruno was only mailed by the first campaign, never folded: nothing yet.
    expect(engagementOf(await row(ids.bruno))).toEqual(NO_ENGAGEMENT);

    // The contact's own writes (name, fields, e-mail, lists) keep its engagement.
    await send('PATCH', `/api/contacts/${ids.ana}`, {
      name: 'Ana Souza Lima',
      email: 'ana.lima@exemplo.com.br',
      fields: { pontos: '99' },
    });
    await bulk('remove_from_list', [ids.ana], vip);
    await expectInSync('updating an engaged contact');
    const after = await row(ids.ana);
    expect(after).toMatchObject({
      name_lower: 'ana souza lima',
      email_lower: 'ana.lima@exemplo.com.br',
      field_numbers: { pontos: 99 },
      list_ids: [],
    });
    expect(engagementOf(after)).toEqual(engagementOf(ana));

    // A contact created once others have engagement: its own row, with none.
    ids.joana = await createContact('joana', { name: 'Joana', listIds: [vip] });
    await expectInSync('creating a contact after engagement');
    expect(engagementOf(await row(ids.joana))).toEqual(NO_ENGAGEMENT);
    expect(engagementOf(await row(ids.ana))).toEqual(engagementOf(ana));
  });

  it('deleting and erasing contacts takes their rows; a late event of an erased contact adds none', async () => {
    const engagedMessage = await queryRows<{ id: number; campaign_id: string }>(
      db,
      sql`select id, campaign_id from messages where contact_id = ${ids.ana} order by id desc limit 1`,
    );
    await send('DELETE', `/api/contacts/${ids.carla}`, undefined, 204);
    await bulk('delete', [ids.dora, ids.eva]);
    await send('POST', `/api/contacts/${ids.ana}/erase`);
    await expectInSync('deleting and erasing contacts');
    for (const who of ['ana', 'carla', 'dora', 'eva'] as const) expect(await rowOf(ids[who]), who).toBeUndefined();
    // An open of the erased contact's message arriving late finds no row to merge into.
    const [m] = engagedMessage;
    await humanEvent(m?.campaign_id as string, 'ana', Number(m?.id), 'open');
    expect(await rowOf(ids.ana)).toBeUndefined();
    await expectInSync('a late event of an erased contact');
    expect(await rowsOfAccount(a.accountId)).toBe(6);
  });

  it('a contact moved to another account and back starts a row there each time, leaving its engagement behind', async () => {
    // No route moves a contact between accounts; a direct update (an operator's repair) must still leave the rows
    // right: the row goes with the contact, its lists read from its memberships, its engagement stays behind.
    const before = await row(ids.helena);
    expect(engagementOf(before)).not.toEqual(NO_ENGAGEMENT);
    expect(before.list_ids.length).toBeGreaterThan(0);
    await db.execute(sql`update contacts set account_id = ${b.accountId} where id = ${ids.helena}`);
    await expectInSync('moving a contact to another account');
    const moved = await row(ids.helena);
    expect(moved).toMatchObject({
      account_id: b.accountId,
      email_lower: before.email_lower,
      name_lower: before.name_lower,
      list_ids: before.list_ids,
    });
    expect(engagementOf(moved)).toEqual(NO_ENGAGEMENT);
    expect(await rowsOfAccount(b.accountId)).toBe(2);
    expect(await rowsOfAccount(a.accountId)).toBe(5);

    await db.execute(sql`update contacts set account_id = ${a.accountId} where id = ${ids.helena}`);
    await expectInSync('moving the contact back');
    expect((await row(ids.helena)).account_id).toBe(a.accountId);
    expect(await rowsOfAccount(b.accountId)).toBe(1);
    expect(await rowsOfAccount(a.accountId)).toBe(6);
  });

  it("an account's first eight custom fields get columns of their own; past them they stay in the jsonb, and counts read both", async () => {
    const c = await signUp(t, { verified: true });
    const slotsOf = () => fieldSlotsOf(c.accountId);
    const rawTexts = async (contactId: string) =>
      (
        await queryRows<{
          field_texts: Record<string, string>;
          field_numbers: Record<string, number>;
          field_days: Record<string, string>;
          field_text_1: string | null;
        }>(
          db,
          sql`select field_texts, field_numbers, field_days, field_text_1 from segment_engagement
               where contact_id = ${contactId}`,
        )
      )[0];
    const fields = (...numbers: number[]) => Object.fromEntries(numbers.map((n) => [`campo${n}`, `Valor ${n}`]));
    // Created with five keys (slots in key order), then given a sixth by an update.
    const first = await createContact('slots-um', { fields: fields(5, 4, 3, 2, 1) }, c);
    await send('PATCH', `/api/contacts/${first}`, { fields: fields(1, 2, 3, 4, 5, 6) }, 200, c);
    // Four more keys in one statement: two slots are left, so campo9 has none.
    const second = await createContact(
      'slots-dois',
      { fields: { ...fields(1), campo7: '12', campo8: '03/02/2001', campo9: '42' } },
      c,
    );
    expect(await slotsOf()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ key: `campo${n}`, slot: n })));
    expect(await rawTexts(second)).toEqual({
      field_texts: { campo9: '42' },
      field_numbers: { campo9: 42 },
      field_days: {},
      field_text_1: 'valor 1',
    });
    expect(await rawTexts(first)).toEqual({
      field_texts: {},
      field_numbers: {},
      field_days: {},
      field_text_1: 'valor 1',
    });
    await expectInSync('custom fields past the slots');
    // A key seen after the slots are taken never takes one, even where a contact drops the slotted keys.
    await send('PATCH', `/api/contacts/${first}`, { fields: { campo10: '1999-12-31', campo8: 'Oito' } }, 200, c);
    expect((await slotsOf()).length).toBe(8);
    expect(await rawTexts(first)).toEqual({
      field_texts: { campo10: '1999-12-31' },
      field_numbers: {},
      field_days: { campo10: '1999-12-31' },
      field_text_1: null,
    });
    await expectInSync('a key past the slots');

    // Counts read from the segment rows (never opened makes it so) find the texts in columns and in field_texts.
    const count = async (key: string, operator: string, value?: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/segments/count',
        headers: { ...c.headers, ...json },
        payload: {
          conditions: {
            type: 'group',
            match: 'all',
            conditions: [
              { type: 'field', field: { custom: key }, operator, value },
              { type: 'engagement', operator: 'never_opened' },
            ],
          },
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().count as number;
    };
    expect(await count('campo1', 'equals', 'VALOR 1')).toBe(1);
    expect(await count('campo8', 'equals', 'oito')).toBe(1);
    expect(await count('campo7', 'is_empty')).toBe(1);
    expect(await count('campo7', 'number_gt', '10')).toBe(1);
    expect(await count('campo8', 'date_before', '2005-01-01')).toBe(1);
    expect(await count('campo9', 'number_eq', '42')).toBe(1);
    expect(await count('campo10', 'date_after', '1999-01-01')).toBe(1);
    expect(await count('campo10', 'contains', '12-3')).toBe(1);
    expect(await count('campo10', 'is_empty')).toBe(1);
  });

  it("deleting an account takes its contacts' rows", async () => {
    expect(await rowsOfAccount(b.accountId)).toBe(1);
    await db.execute(sql`delete from accounts where id = ${b.accountId}`);
    expect(await rowsOfAccount(b.accountId)).toBe(0);
    expect(await rowOf(ids.outra)).toBeUndefined();
    await expectInSync('deleting an account');
  });

  /**
   * Two transactions on connections of their own run `statement`, the second while the first's is still open: the
   * second waits for a lock the first holds, and the first commits while it waits (PostgreSQL only; PGlite is one
   * connection).
   */
  const twoAtOnce = async (statement: string, firstParams: unknown[], secondParams: unknown[]) => {
    const pool = t.database.pool as NonNullable<typeof t.database.pool>;
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('begin');
      await first.query(statement, firstParams);
      await second.query('begin');
      const waiting = second.query(statement, secondParams);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await first.query('commit');
      await waiting;
      await second.query('commit');
    } finally {
      first.release();
      second.release();
    }
  };

  // Two connections racing exist only on PostgreSQL: these tests are defined there only, so they are never reported
  // as skipped.
  if (kind === 'postgres') {
    it('two transactions adding new custom fields to one account at once give each key its own slot', async () => {
      const c = await signUp(t, { verified: true });
      const contact = (local: string, key: string) => [
        c.accountId,
        `${local}@exemplo.com.br`,
        JSON.stringify({ [key]: `Texto ${key}` }),
      ];
      // The second waits for the first's turn at the account's slots.
      await twoAtOnce(
        'insert into contacts (account_id, email, fields) values ($1, $2, $3)',
        contact('corrida-um', 'primeiro'),
        contact('corrida-dois', 'segundo'),
      );
      expect(await fieldSlotsOf(c.accountId)).toEqual([
        { key: 'primeiro', slot: 1 },
        { key: 'segundo', slot: 2 },
      ]);
      await expectInSync('two concurrent new keys');
    });

    it("an import batch deadlocked with a writer over the account's field slots runs again and completes", async () => {
      const c = await signUp(t, { verified: true });
      const pool = t.database.pool as NonNullable<typeof t.database.pool>;
      const writer = await pool.connect();
      let importId = '';
      try {
        // The writer takes the account's field slots (a key new to it) and keeps its transaction open.
        await writer.query('begin');
        await writer.query(`insert into contacts (account_id, email, fields) values ($1, $2, '{"loja": "Centro"}')`, [
          c.accountId,
          'primeira@exemplo.com.br',
        ]);
        // The import's batch adds disputada@ and waits for the slots (its key, canal, is new too).
        const csv = 'email;canal\ndisputada@exemplo.com.br;WhatsApp\noutra@exemplo.com.br;E-mail\n';
        importId = (await uploadImport(db, c.accountId, Readable.from([Buffer.from(csv)]), 'contatos.csv')).importId;
        await startImport(db, c.accountId, importId, {
          mapping: { email: 'email', canal: 'field:canal' },
          legalBasis: 'consent',
          consentSource: 'planilha da loja',
          updateExisting: false,
        });
        const running = runImport(db, importId, consentLinksFrom(t.config));
        const waitingForSlots = async () =>
          (
            await writer.query(
              `select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = 2612 and not granted`,
            )
          ).rows[0].n as number;
        for (let i = 0; i < 400 && (await waitingForSlots()) === 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(await waitingForSlots()).toBe(1);
        // The writer now waits for disputada@, which the waiting batch added: PostgreSQL rolls the batch back.
        await writer.query(`insert into contacts (account_id, email) values ($1, $2)`, [
          c.accountId,
          'disputada@exemplo.com.br',
        ]);
        await writer.query('commit');
        await running;
      } finally {
        writer.release();
      }
      expect(await findImport(db, c.accountId, importId)).toMatchObject({ status: 'done', inserted: 1 });
      expect(await fieldSlotsOf(c.accountId)).toEqual([
        { key: 'loja', slot: 1 },
        { key: 'canal', slot: 2 },
      ]);
      await expectInSync('an import batch run again after a deadlock');
    });

    it('two transactions subscribing one contact to two lists at once leave both lists on its row', async () => {
      const [x, y] = await Promise.all(
        ['Corrida X', 'Corrida Y'].map(async (name) => (await send('POST', '/api/lists', { name })).id as string),
      );
      const contactId = await createContact('corrida');
      // The second waits for the first's lock on the row.
      await twoAtOnce(
        "insert into list_memberships (list_id, contact_id, status) values ($1, $2, 'subscribed')",
        [x, contactId],
        [y, contactId],
      );
      expect((await row(contactId)).list_ids).toEqual([x, y].sort());
      await expectInSync('two concurrent subscriptions');
    });
  }
});
