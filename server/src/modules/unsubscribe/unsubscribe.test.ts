import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { SendingEngine } from '../../worker/sending-engine';
import { createRelayTransport } from '../../worker/sending-runtime';
import { contacts } from '../contacts/contacts.db';
import { messages } from '../sending/messages.db';
import { runEngineUntil } from '../sending/testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  testSenderSettings,
} from '../sending/testing/send-fixtures';
import { type SmtpSink, startSmtpSink } from '../sending/testing/smtp-sink';

const oneClick = (t: TestApp, token: string) =>
  t.app.inject({
    method: 'POST',
    url: `/u/${token}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  });

/**
 * RFC 8058 one-click against real sends: the recipient unsubscribes from a message they received while the
 * account's next campaign to the same list is already under way, and gets nothing more.
 */
describe.each(DATABASE_KINDS)('one-click unsubscribe with the sending engine on %s', (kind) => {
  let t: TestApp;
  let db: Db;
  let sink: SmtpSink;
  let sender: SendingEngine;
  let transport: ReturnType<typeof createRelayTransport>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    db = t.database.db;
    sink = await startSmtpSink();
    transport = createRelayTransport(sink.url, 1);
    sender = new SendingEngine({
      db,
      signers: [],
      transports: [transport],
      settings: testSenderSettings({ batchSize: 2, concurrency: 1 }),
      logger: pino({ level: 'silent' }),
      mailer: t.mailer,
    });
  });
  afterAll(async () => {
    await sender?.stop();
    await transport?.close();
    await sink?.close();
    await t?.close();
  });

  async function drain(campaignId: string) {
    await runEngineUntil(
      sender,
      async () => (await campaignStatus(db, campaignId))?.status === 'sent',
      'the campaign sent',
      {
        explain: async () => `status ${(await campaignStatus(db, campaignId))?.status}`,
      },
    );
    return campaignStatus(db, campaignId);
  }

  const send = (user: SignedInUser, id: string) =>
    t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });

  it('a contact who unsubscribes by one-click while the next campaign is sending receives nothing more', async () => {
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 10_000);
    const stamp = randomUUID().slice(0, 6);
    const emails = ['ana', 'bia', 'caio'].map((n) => `${n}-${stamp}@destino.com.br`);
    const { listId } = await createListWithContacts(db, user.accountId, emails, { cidade: 'Belém' });
    const leaving = emails[1] as string;

    const first = await createReadyCampaign(db, user.accountId, { includeListIds: [listId] });
    expect((await send(user, first)).statusCode).toBe(200);
    await drain(first);
    expect(emails.map((e) => sink.attempts.get(e))).toEqual([1, 1, 1]);

    // The next campaign to the same list is snapshotted (3 queued messages) before the recipient acts.
    const second = await createReadyCampaign(db, user.accountId, { includeListIds: [listId] });
    expect((await send(user, second)).statusCode).toBe(200);
    const [received] = await db
      .select({ token: messages.token })
      .from(messages)
      .where(and(eq(messages.campaignId, first), eq(messages.email, leaving)));
    const res = await oneClick(t, received?.token as string);
    expect(res.statusCode).toBe(200);
    expect(res.headers.location).toBeUndefined();

    await drain(second);
    const rows = await db.select().from(messages).where(eq(messages.campaignId, second));
    const status = Object.fromEntries(rows.map((r) => [r.email, r.status]));
    expect(status).toEqual({ [emails[0] as string]: 'sent', [leaving]: 'skipped', [emails[2] as string]: 'sent' });
    expect(emails.map((e) => sink.attempts.get(e))).toEqual([2, 1, 2]);
    expect((await campaignStatus(db, second))?.sentCount).toBe(2);

    // A third campaign does not even snapshot the address.
    const third = await createReadyCampaign(db, user.accountId, { includeListIds: [listId] });
    expect((await send(user, third)).statusCode).toBe(200);
    const queued = await db.select({ email: messages.email }).from(messages).where(eq(messages.campaignId, third));
    expect(queued.map((q) => q.email).sort()).toEqual([emails[0], emails[2]].sort());
    await drain(third);
    expect(sink.attempts.get(leaving)).toBe(1);
  });

  const api = (user: SignedInUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: payload === undefined ? user.headers : { ...user.headers, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const reasonOf = async (user: SignedInUser, email: string) =>
    (await api(user, 'POST', '/api/suppressions/lookup', { email })).json().reason as string | null;
  const unsubscribedCount = async (user: SignedInUser) =>
    (await api(user, 'GET', '/api/suppressions')).json().byReason.unsubscribed as number;
  const recipients = async (user: SignedInUser, listIds: string[]) => {
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: listIds });
    return (await api(user, 'GET', `/api/campaigns/${id}/summary`)).json().recipients as number;
  };
  const tokenOf = async (campaignId: string, email: string) =>
    (
      await db
        .select({ token: messages.token })
        .from(messages)
        .where(and(eq(messages.campaignId, campaignId), eq(messages.email, email)))
    )[0]?.token as string;
  const form = (token: string, action: string, payload = '') =>
    t.app.inject({
      method: 'POST',
      url: `/u/${token}/${action}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });

  it('one-click puts the address on the suppression list; the recipient resubscribing takes it off and is mailed again', async () => {
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 10_000);
    const stamp = randomUUID().slice(0, 6);
    const [ana, bia, caio] = ['ana', 'bia', 'caio'].map((n) => `${n}-${stamp}@destino.com.br`) as [
      string,
      string,
      string,
    ];
    const { listId } = await createListWithContacts(db, user.accountId, [ana, bia, caio], { cidade: 'Recife' });
    const first = await createReadyCampaign(db, user.accountId, { includeListIds: [listId] });
    expect((await send(user, first)).statusCode).toBe(200);
    await drain(first);
    // Then the sender puts caio on the suppression list by hand: nothing the recipient does lifts that.
    expect((await api(user, 'POST', '/api/suppressions', { emails: [caio] })).json().added).toBe(1);
    expect(await recipients(user, [listId])).toBe(2);

    // On one list only, the page does not speak of "this list": confirming ends the account's marketing for her.
    const prompt = await t.app.inject({ url: `/u/${await tokenOf(first, ana)}` });
    expect(prompt.body).toContain('Confirme abaixo para não receber mais nenhum e-mail de marketing de <strong>');
    expect(prompt.body).not.toContain('lista.');
    const done = await oneClick(t, await tokenOf(first, bia));
    expect(done.statusCode).toBe(200);
    // What an unsubscribe covers, said where it happens: the account's marketing, not its transactional mail.
    const [account] = await queryRows<{ name: string }>(
      db,
      sql`select name from accounts where id = ${user.accountId}`,
    );
    expect(done.body).toContain(`Você não receberá mais e-mails de marketing de <strong>${account?.name}</strong>.`);
    expect(done.body).toContain('as transacionais — continuam chegando');
    expect(await reasonOf(user, bia)).toBe('unsubscribed');
    expect(await unsubscribedCount(user)).toBe(1);
    expect(await recipients(user, [listId])).toBe(1);
    // Idempotent.
    expect((await oneClick(t, await tokenOf(first, bia))).statusCode).toBe(200);
    expect(await unsubscribedCount(user)).toBe(1);

    // The page's own button: "Quero voltar a receber".
    const page = await t.app.inject({ method: 'GET', url: `/u/${await tokenOf(first, bia)}` });
    expect(page.body).toContain('Quero voltar a receber');
    const back = await form(await tokenOf(first, bia), 'resubscribe');
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('Inscrição reativada');
    expect(await reasonOf(user, bia)).toBeNull();
    expect(await unsubscribedCount(user)).toBe(0);
    expect(await recipients(user, [listId])).toBe(2);

    // The sender's manual entry stays whatever the recipient does.
    await form(await tokenOf(first, caio), 'confirm');
    expect(await reasonOf(user, caio)).toBe('manual');
    expect((await form(await tokenOf(first, caio), 'resubscribe')).statusCode).toBe(200);
    expect(await reasonOf(user, caio)).toBe('manual');
    expect(await unsubscribedCount(user)).toBe(0);

    // Mailed again by the engine: ana and bia, not caio.
    const next = await createReadyCampaign(db, user.accountId, { includeListIds: [listId] });
    expect((await send(user, next)).statusCode).toBe(200);
    await drain(next);
    expect([ana, bia, caio].map((e) => sink.attempts.get(e))).toEqual([2, 2, 1]);
  });

  it('leaving one list of two suppresses nothing; leaving every list (page or preference centre) does, keeping one again lifts it', async () => {
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 10_000);
    const stamp = randomUUID().slice(0, 6);
    const [dora, edu] = [`dora-${stamp}@destino.com.br`, `edu-${stamp}@destino.com.br`];
    const { listId: news } = await createListWithContacts(db, user.accountId, [dora, edu], {
      name: 'Novidades',
      cidade: 'Recife',
    });
    const { listId: promos } = await createListWithContacts(db, user.accountId, [dora], {
      name: 'Promoções',
      cidade: 'Recife',
    });
    const campaign = await createReadyCampaign(db, user.accountId, { includeListIds: [news] });
    expect((await send(user, campaign)).statusCode).toBe(200);
    await drain(campaign);

    // dora leaves Novidades but stays on Promoções: no account-wide opt-out, and the page says so.
    // Before: the page says she leaves this campaign's lists and stays on Promoções, by name.
    const page = await t.app.inject({ url: `/u/${await tokenOf(campaign, dora)}` });
    expect(page.body).toMatch(
      /Confirme abaixo para sair das listas desta campanha\. Você continua .* por <strong>Promoções<\/strong>/,
    );
    const left = await form(await tokenOf(campaign, dora), 'confirm');
    expect(left.statusCode).toBe(200);
    expect(left.body).toMatch(
      /Você saiu das listas desta campanha: não receberá mais e-mails de marketing de <strong>[^<]+<\/strong> por elas\./,
    );
    expect(await reasonOf(user, dora)).toBeNull();
    expect(await recipients(user, [promos])).toBe(1);
    // Unchecks Promoções too in the preference centre: left on no list → suppressed.
    expect((await form(await tokenOf(campaign, dora), 'preferences')).statusCode).toBe(200);
    expect(await reasonOf(user, dora)).toBe('unsubscribed');
    expect(await recipients(user, [news, promos])).toBe(1);
    // Checks Promoções again: her own choice lifts it, for that list only.
    expect((await form(await tokenOf(campaign, dora), 'preferences', `list=${promos}`)).statusCode).toBe(200);
    expect(await reasonOf(user, dora)).toBeNull();
    expect(await recipients(user, [promos])).toBe(1);
    expect(await recipients(user, [news])).toBe(1); // edu only

    // The page's confirm button on a single-list contact: no list left, the account's marketing stops.
    const gone = await form(await tokenOf(campaign, edu), 'confirm');
    expect(gone.statusCode).toBe(200);
    expect(gone.body).toMatch(/Você não receberá mais e-mails de marketing de <strong>[^<]+<\/strong>\.<\/p>/);
    expect(await reasonOf(user, edu)).toBe('unsubscribed');
    expect(await recipients(user, [news])).toBe(0);
  });

  it('an unsubscribe whose contact was deleted suppresses the address; deleted after unsubscribing, a re-import skips it', async () => {
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 10_000);
    const stamp = randomUUID().slice(0, 6);
    const [fabi, gil] = [`fabi-${stamp}@destino.com.br`, `gil-${stamp}@destino.com.br`];
    const { listId } = await createListWithContacts(db, user.accountId, [fabi, gil], { cidade: 'Recife' });
    const campaign = await createReadyCampaign(db, user.accountId, { includeListIds: [listId] });
    expect((await send(user, campaign)).statusCode).toBe(200);
    await drain(campaign);
    const idOf = async (email: string) =>
      (await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.email, email)))[0]?.id as string;

    // gil unsubscribes, then the sender deletes the contact.
    expect((await oneClick(t, await tokenOf(campaign, gil))).statusCode).toBe(200);
    expect((await api(user, 'DELETE', `/api/contacts/${await idOf(gil)}`)).statusCode).toBe(204);
    // The sender deletes fabi, who unsubscribes afterwards from the message she had received.
    expect((await api(user, 'DELETE', `/api/contacts/${await idOf(fabi)}`)).statusCode).toBe(204);
    expect((await oneClick(t, await tokenOf(campaign, fabi))).statusCode).toBe(200);
    expect(await reasonOf(user, fabi)).toBe('unsubscribed');
    expect(await reasonOf(user, gil)).toBe('unsubscribed');

    // The old spreadsheet comes back.
    const up = (
      await t.app.inject({
        method: 'POST',
        url: '/api/imports',
        headers: { ...user.headers, 'content-type': 'text/csv' },
        payload: `email\n${fabi.toUpperCase()}\n${gil}\nnovo-${stamp}@destino.com.br\n`,
      })
    ).json();
    const started = await api(user, 'POST', `/api/imports/${up.importId}/start`, {
      mapping: { email: 'email' },
      listId,
      legalBasis: 'consent',
      consentSource: 'planilha antiga',
    });
    expect(started.statusCode).toBe(202);
    let progress: { status: string } = { status: 'queued' };
    for (let i = 0; i < 200 && progress.status !== 'done' && progress.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      progress = (await api(user, 'GET', `/api/imports/${up.importId}`)).json();
    }
    expect(progress).toMatchObject({ status: 'done', inserted: 1, skippedSuppressed: 2 });
    expect(await recipients(user, [listId])).toBe(1);
  });

  it("another account's token never touches this account's contact with the same address", async () => {
    const address = `mesma-${randomUUID().slice(0, 6)}@destino.com.br`;
    const mine = await signUp(t, { verified: true });
    const theirs = await signUp(t, { verified: true });
    await creditAccount(db, theirs.accountId, 10_000);
    const { listId: myList } = await createListWithContacts(db, mine.accountId, [address], { cidade: 'Natal' });
    const { listId: theirList } = await createListWithContacts(db, theirs.accountId, [address], { cidade: 'Natal' });
    const campaign = await createReadyCampaign(db, theirs.accountId, { includeListIds: [theirList] });
    expect((await send(theirs, campaign)).statusCode).toBe(200);
    await drain(campaign);
    const [message] = await db
      .select({ token: messages.token })
      .from(messages)
      .where(eq(messages.campaignId, campaign));
    const token = message?.token as string;

    // Their recipient page offers only their lists; naming my list with their token → 400, nothing changes.
    const page = await t.app.inject({ method: 'GET', url: `/u/${token}` });
    expect(page.statusCode).toBe(200);
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/u/${token}/preferences`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `list=${myList}`,
    });
    expect(foreign.statusCode).toBe(400);

    expect((await oneClick(t, token)).statusCode).toBe(200);
    const state = async (accountId: string) =>
      (
        await db
          .select({ status: contacts.status })
          .from(contacts)
          .where(and(eq(contacts.accountId, accountId), eq(contacts.email, address)))
      )[0]?.status;
    expect(await state(theirs.accountId)).toBe('unsubscribed');
    expect(await state(mine.accountId)).toBe('subscribed');
  });
});
