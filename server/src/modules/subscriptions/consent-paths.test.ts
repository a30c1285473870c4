import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { waitForImport } from '../../../test/support/imports';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import type { TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { accounts } from '../accounts/accounts.db';
import { tickAutomations } from '../automations/automations-runtime';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { useEngineHarness } from '../sending/testing/engine-harness';
import { creditAccount } from '../sending/testing/send-fixtures';
import { createTemplate } from '../templates/templates';

const FROM = 'novidades@loja.com.br';
const json = { 'content-type': 'application/json' };

interface Account {
  user: SignedInUser;
  key: string;
  lists: Record<'single' | 'double', string>;
}

/**
 * Consent in one place: every path that puts a contact on a list — the public API (four operations), the
 * dashboard (new contact, bulk "adicionar à lista"), a CSV import and the hosted form — against a single and a
 * double opt-in list, through the real app. Single: subscribed at once, nothing sent. Double: pending, ONE
 * confirmation e-mail whatever is repeated, and its link makes it subscribed. The sender's confirmations are
 * messages of the account (charged, From its default sender); the form's are Carteiro's own e-mail.
 */
describe.each(DATABASE_KINDS)('every path that adds a contact to a list, on %s', (kind) => {
  const engine = useEngineHarness(kind);
  let t: TestApp;
  let db: Db;
  beforeAll(() => {
    ({ t, db } = engine);
  });

  async function account(): Promise<Account> {
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 10_000);
    await trustSenderAddress(db, user.accountId, FROM);
    await db
      .update(accounts)
      .set({ defaultFromEmail: FROM, defaultFromName: 'Loja Ação' })
      .where(eq(accounts.id, user.accountId));
    const lists = { single: '', double: '' };
    for (const optIn of ['single', 'double'] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/lists',
        headers: { ...user.headers, ...json },
        payload: { name: `Clientes ${optIn === 'double' ? 'VIP' : 'gerais'}`, optIn },
      });
      expect(res.statusCode, res.body).toBe(201);
      lists[optIn] = res.json().id;
    }
    return { user, key: await createApiKeyFor(t, user), lists };
  }

  // A contact the API creates carries its legal basis (ADR 0037).
  const api = (a: Account, method: 'POST' | 'PUT', url: string, payload: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(a.key, json),
      payload:
        method === 'POST' && url === '/contacts'
          ? { legalBasis: 'consent', ...(payload as object) }
          : (payload as object),
    });
  const dashboard = (a: Account, method: 'POST' | 'PATCH', url: string, payload: unknown) =>
    t.app.inject({ method, url, headers: { ...a.user.headers, ...json }, payload: payload as object });

  async function createBare(a: Account, email: string): Promise<string> {
    const res = await api(a, 'POST', '/contacts', { email });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  }

  /** The ways in: each puts `email` on `listId` (creating the contact when the path does). */
  const PATHS: Record<string, (a: Account, listId: string, email: string) => Promise<void>> = {
    'API POST /contacts com listIds': async (a, listId, email) => {
      const res = await api(a, 'POST', '/contacts', { email, name: 'Ana', listIds: [listId] });
      expect(res.statusCode, res.body).toBe(201);
    },
    'API PUT /contacts com listIds': async (a, listId, email) => {
      await createBare(a, email);
      const res = await api(a, 'PUT', '/contacts', { email, listIds: [listId] });
      expect(res.statusCode, res.body).toBe(200);
    },
    'API POST /contacts/{id}/lists': async (a, listId, email) => {
      const id = await createBare(a, email);
      const res = await api(a, 'POST', `/contacts/${id}/lists`, { listIds: [listId] });
      expect(res.statusCode, res.body).toBe(200);
    },
    'API POST /lists/{id}/members': async (a, listId, email) => {
      const id = await createBare(a, email);
      const res = await api(a, 'POST', `/lists/${listId}/members`, { contactIds: [id] });
      expect(res.statusCode, res.body).toBe(200);
    },
    'painel: novo contato com lista': async (a, listId, email) => {
      const res = await dashboard(a, 'POST', '/api/contacts', { email, listIds: [listId] });
      expect(res.statusCode, res.body).toBe(201);
    },
    'painel: ação em massa "adicionar à lista"': async (a, listId, email) => {
      const id = await createBare(a, email);
      const res = await dashboard(a, 'POST', '/api/contacts/bulk', { action: 'add_to_list', ids: [id], listId });
      expect(res.statusCode, res.body).toBe(200);
    },
    'importação CSV': async (a, listId, email) => {
      const up = await t.app.inject({
        method: 'POST',
        url: '/api/imports',
        headers: { ...a.user.headers, 'content-type': 'text/csv', 'x-file-name': 'contatos.csv' },
        payload: `email;nome\n${email};Ana\n`,
      });
      expect(up.statusCode, up.body).toBe(201);
      const started = await dashboard(a, 'POST', `/api/imports/${up.json().importId}/start`, {
        mapping: { email: 'email', nome: 'name' },
        listId,
        legalBasis: 'consent',
        consentSource: 'planilha da loja',
      });
      expect(started.statusCode, started.body).toBe(202);
      expect(await waitForImport(t, a.user, up.json().importId)).toMatchObject({ status: 'done', inserted: 1 });
    },
    'formulário hospedado': async (_a, listId, email) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/s/${listId}`,
        remoteAddress: `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email, nome: 'Ana', consentimento: 'sim' }).toString(),
      });
      expect(res.statusCode, res.body).toBe(200);
    },
  };

  async function membershipOf(listId: string, email: string) {
    const [row] = await queryRows<{ status: string }>(
      db,
      sql`select m.status from list_memberships m join contacts c on c.id = m.contact_id
           where m.list_id = ${listId} and c.email = ${email}`,
    );
    return row?.status ?? null;
  }

  /** The confirmations asked of this address: the account's messages (sender paths) or Carteiro's own e-mail. */
  async function confirmationsTo(email: string) {
    const queued = await queryRows<{ subject: string; html: string; from_email: string; cost_millis: number }>(
      db,
      sql`select t.subject, t.html, t.from_email, t.cost_millis from messages m
            join transactional_messages t on t.message_id = m.id
           where m.email = ${email} and t.subject like 'Confirme sua inscrição%'`,
    );
    const system = (await t.sentMail()).filter(
      (m) => m.to.includes(email) && m.subject.startsWith('Confirme sua inscrição'),
    );
    return [
      ...queued.map((q) => ({ via: 'conta', subject: q.subject, body: q.html, from: q.from_email })),
      ...system.map((m) => ({ via: 'sistema', subject: m.subject, body: m.html ?? m.text ?? '', from: 'Carteiro' })),
    ];
  }

  function tokenIn(body: string): string {
    const match = body.match(/\/s\/confirm\?token=([^"&\s<]+)/);
    if (!match?.[1]) throw new Error(`no confirmation link in ${body}`);
    return decodeURIComponent(match[1].replace(/&amp;/g, '&'));
  }

  for (const [path, add] of Object.entries(PATHS)) {
    it(`${path} × lista simples: inscrito na hora, nenhum e-mail de confirmação`, async () => {
      const a = await account();
      const email = `simples-${randomUUID().slice(0, 8)}@destino.com.br`;
      await add(a, a.lists.single, email);
      expect(await membershipOf(a.lists.single, email)).toBe('subscribed');
      expect(await confirmationsTo(email)).toEqual([]);
    });

    it(`${path} × lista com confirmação dupla: pendente, um e-mail só, o link inscreve`, async () => {
      const a = await account();
      const email = `dupla-${randomUUID().slice(0, 8)}@destino.com.br`;
      await add(a, a.lists.double, email);
      expect(await membershipOf(a.lists.double, email)).toBe('pending');
      const [confirmation, ...more] = await confirmationsTo(email);
      expect(more).toEqual([]);
      expect(confirmation?.subject).toBe('Confirme sua inscrição na lista "Clientes VIP"');
      expect(confirmation?.via).toBe(path === 'formulário hospedado' ? 'sistema' : 'conta');
      if (confirmation?.via === 'conta') expect(confirmation.from).toBe(FROM);

      // Asked again through the same path (a retry, a second import, a double click): no second e-mail.
      if (path !== 'importação CSV' && !path.startsWith('API PUT')) {
        const id = (await queryRows<{ id: string }>(db, sql`select id from contacts where email = ${email}`))[0]
          ?.id as string;
        if (path === 'formulário hospedado') await add(a, a.lists.double, email);
        else await api(a, 'POST', `/lists/${a.lists.double}/members`, { contactIds: [id] });
      }
      expect(await confirmationsTo(email)).toHaveLength(1);

      const confirmed = await t.app.inject({
        url: `/s/confirm?token=${encodeURIComponent(tokenIn(confirmation?.body ?? ''))}`,
      });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.body).toContain('Inscrição confirmada');
      expect(await membershipOf(a.lists.double, email)).toBe('subscribed');
    });
  }

  it('one e-mail for two double opt-in lists at once; its link confirms both', async () => {
    const a = await account();
    const other = await dashboard(a, 'POST', '/api/lists', { name: 'Ofertas', optIn: 'double' });
    const email = `duas-${randomUUID().slice(0, 8)}@destino.com.br`;
    const res = await api(a, 'POST', '/contacts', {
      email,
      listIds: [a.lists.double, other.json().id, a.lists.single],
    });
    expect(res.statusCode, res.body).toBe(201);
    const [only, ...more] = await confirmationsTo(email);
    expect(more).toEqual([]);
    expect(only?.subject).toBe('Confirme sua inscrição nas listas "Clientes VIP" e "Ofertas"');
    expect(await membershipOf(a.lists.single, email)).toBe('subscribed');
    await t.app.inject({ url: `/s/confirm?token=${encodeURIComponent(tokenIn(only?.body ?? ''))}` });
    expect(await membershipOf(a.lists.double, email)).toBe('subscribed');
    expect(await membershipOf(other.json().id, email)).toBe('subscribed');
  });

  it('the confirmations a sender causes are charged, refused without balance (402, nothing added) or without a verified default sender (403)', async () => {
    const a = await account();
    const balance = async () =>
      Number((await db.select().from(accounts).where(eq(accounts.id, a.user.accountId)))[0]?.balanceMillis);
    const before = await balance();
    const ids = [await createBare(a, 'pago1@destino.com.br'), await createBare(a, 'pago2@destino.com.br')];
    const joined = await api(a, 'POST', `/lists/${a.lists.double}/members`, { contactIds: ids });
    expect(joined.json()).toEqual({ affected: 2, subscribed: 0, pending: 2, skipped: 0, confirmationsSent: 2 });
    expect(await balance()).toBe(before - 10);

    await creditAccount(db, a.user.accountId, 3 - (before - 10)); // an operator debit down to R$ 0,003
    const poor = await api(a, 'POST', '/contacts', { email: 'sem-saldo@destino.com.br', listIds: [a.lists.double] });
    expect(poor.statusCode).toBe(402);
    expect(poor.json().error.message).toBe(
      'Saldo insuficiente: faltam R$\u00a00,002 para enviar o e-mail de confirmação da lista com confirmação dupla.',
    );
    const [kept] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from contacts where email = 'sem-saldo@destino.com.br'`,
    );
    expect(Number(kept?.n)).toBe(0);

    await db.update(accounts).set({ defaultFromEmail: null }).where(eq(accounts.id, a.user.accountId));
    const noSender = await dashboard(a, 'POST', '/api/contacts', {
      email: 'sem-remetente@destino.com.br',
      listIds: [a.lists.double],
    });
    expect(noSender.statusCode).toBe(403);
    expect(noSender.json().error.message).toContain('Defina o remetente padrão da conta');
    // The import says so before it starts.
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...a.user.headers, 'content-type': 'text/csv' },
      payload: 'email\nx@destino.com.br\n',
    });
    const start = await dashboard(a, 'POST', `/api/imports/${up.json().importId}/start`, {
      mapping: { email: 'email' },
      listId: a.lists.double,
      legalBasis: 'consent',
      consentSource: 'planilha',
    });
    expect(start.statusCode).toBe(403);
  });

  it('a sender never re-subscribes an unsubscribed contact: PATCH (dashboard, API) answers 409, adding to a list skips it, automations do not enroll it; the form with its confirmation does', async () => {
    const a = await account();
    const template = await createTemplate(db, a.user.accountId, {
      name: 'Boas-vindas',
      subject: 'Olá!',
      html: '<p>Bem-vindo!</p><a href="{{ link_descadastro }}">Descadastrar</a>',
    });
    const automation = await dashboard(a, 'POST', '/api/automations', {
      name: 'Boas-vindas',
      fromEmail: FROM,
      fromName: 'Loja',
      trigger: { type: 'list_joined', listId: a.lists.single },
      steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template.id }],
    });
    expect(automation.statusCode, automation.body).toBe(201);
    const activated = await t.app.inject({
      method: 'POST',
      url: `/api/automations/${automation.json().id}/activate`,
      headers: a.user.headers,
    });
    expect(activated.statusCode).toBe(200);
    const email = `saiu-${randomUUID().slice(0, 8)}@destino.com.br`;
    const id = await createBare(a, email);
    const unsubscribed = await dashboard(a, 'PATCH', `/api/contacts/${id}`, { status: 'unsubscribed' });
    expect(unsubscribed.statusCode).toBe(200);

    for (const res of [
      await dashboard(a, 'PATCH', `/api/contacts/${id}`, { status: 'subscribed' }),
      await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/contacts/${id}`,
        headers: bearer(a.key, json),
        payload: { status: 'subscribed' },
      }),
      await api(a, 'PUT', '/contacts', { email, status: 'subscribed' }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'consent_required', details: { status: 'unsubscribed' } });
      expect(res.json().error.message).toContain('só volta com um novo consentimento dele');
    }
    const added = await api(a, 'POST', `/lists/${a.lists.single}/members`, { contactIds: [id] });
    expect(added.json()).toMatchObject({ affected: 0, skipped: 1 });
    const at = new Date(Date.now() + 1000);
    await tickAutomations({ db, mailer: t.mailer, publicUrl: t.config.PUBLIC_URL }, at);
    const enrolled = async () =>
      Number(
        (
          await queryRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from automation_enrollments where contact_id = ${id}`,
          )
        )[0]?.n,
      );
    expect(await enrolled()).toBe(0);

    // The person's own new consent: the form (suppressed address → confirmation e-mail even on a single list).
    await PATHS['formulário hospedado']?.(a, a.lists.single, email);
    expect(await membershipOf(a.lists.single, email)).toBe('pending');
    const [confirmation] = await confirmationsTo(email);
    await t.app.inject({ url: `/s/confirm?token=${encodeURIComponent(tokenIn(confirmation?.body ?? ''))}` });
    expect(await membershipOf(a.lists.single, email)).toBe('subscribed');
    const [contact] = await queryRows<{ status: string }>(db, sql`select status from contacts where id = ${id}`);
    expect(contact?.status).toBe('subscribed');
    await tickAutomations({ db, mailer: t.mailer, publicUrl: t.config.PUBLIC_URL }, new Date(Date.now() + 2000));
    expect(await enrolled()).toBe(1);
  });

  it("the form's confirmation reaches an address whose suppression the person's consent lifts (erased, unsubscribed), never a bounced or manually suppressed one", async () => {
    const a = await account();
    const stamp = randomUUID().slice(0, 8);
    const emails = {
      erased: `apagado-${stamp}@destino.com.br`,
      unsubscribed: `saiu-${stamp}@destino.com.br`,
      bounced: `devolvido-${stamp}@destino.com.br`,
      manual: `manual-${stamp}@destino.com.br`,
    };
    for (const [reason, email] of Object.entries(emails)) {
      await db.execute(
        sql`insert into suppressions (account_id, email_hash, reason)
            values (${a.user.accountId}, encode(sha256(convert_to(${email}::text, 'UTF8')), 'hex'), ${reason})`,
      );
      await PATHS['formulário hospedado']?.(a, a.lists.single, email);
      // Suppressed: the form asks for a confirmation even on a single opt-in list, and answers the same either way.
      expect(await membershipOf(a.lists.single, email)).toBe('pending');
    }
    const got = async (email: string) => (await confirmationsTo(email)).length;
    expect(await got(emails.erased)).toBe(1);
    expect(await got(emails.unsubscribed)).toBe(1);
    expect(await got(emails.bounced)).toBe(0);
    expect(await got(emails.manual)).toBe(0);
    const [erased] = await confirmationsTo(emails.erased);
    await t.app.inject({ url: `/s/confirm?token=${encodeURIComponent(tokenIn(erased?.body ?? ''))}` });
    expect(await membershipOf(a.lists.single, emails.erased)).toBe('subscribed');
    const [left] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from suppressions
           where email_hash = encode(sha256(convert_to(${emails.erased}::text, 'UTF8')), 'hex')`,
    );
    expect(Number(left?.n)).toBe(0);
  });

  it('a double opt-in member enters a list automation only once confirmed', async () => {
    const a = await account();
    const template = await createTemplate(db, a.user.accountId, {
      name: 'Boas-vindas VIP',
      subject: 'Olá!',
      html: '<p>Bem-vindo!</p><a href="{{ link_descadastro }}">Descadastrar</a>',
    });
    const automation = await dashboard(a, 'POST', '/api/automations', {
      name: 'VIP',
      fromEmail: FROM,
      fromName: 'Loja',
      trigger: { type: 'list_joined', listId: a.lists.double },
      steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template.id }],
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/automations/${automation.json().id}/activate`,
      headers: a.user.headers,
    });
    const email = `vip-${randomUUID().slice(0, 8)}@destino.com.br`;
    await PATHS['API POST /contacts com listIds']?.(a, a.lists.double, email);
    const runs = async (when: Date) => {
      await tickAutomations({ db, mailer: t.mailer, publicUrl: t.config.PUBLIC_URL }, when);
      return Number(
        (
          await queryRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from automation_enrollments e join contacts c on c.id = e.contact_id
                 where c.email = ${email}`,
          )
        )[0]?.n,
      );
    };
    expect(await runs(new Date(Date.now() + 1000))).toBe(0);
    const [confirmation] = await confirmationsTo(email);
    await t.app.inject({ url: `/s/confirm?token=${encodeURIComponent(tokenIn(confirmation?.body ?? ''))}` });
    expect(await runs(new Date(Date.now() + 2000))).toBe(1);
  });
});
