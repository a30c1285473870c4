import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import type { TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { contacts } from '../contacts/contacts.db';
import { startImport, uploadImport } from '../imports/import-files';
import { runImport } from '../imports/run-import';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import { creditAccount } from '../sending/testing/send-fixtures';
import type { SmtpSink } from '../sending/testing/smtp-sink';
import { createTemplate, updateTemplate } from '../templates/templates';
import { sendTransactional } from '../transactional/send-transactional';
import { tickAutomations } from './automations-runtime';
import { localDay, monthDaysOn } from './enroll';
import type { AutomationDeps } from './run-steps';
import { countedFromHistory } from './testing/report-from-history';

const FROM = 'ola@loja.com.br';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const WELCOME_HTML = `<html><body><p>Bem-vindo, {{ contato.nome | default: "cliente" }}!</p>
<p>Pedido {{ evento.pedido | default: "-" }}</p><a href="https://loja.com.br/ofertas">Ofertas</a>
<p>{{ conta.razao_social }} — {{ conta.endereco }}</p><a href="{{ link_descadastro }}">Descadastrar</a></body></html>`;

describe('localDay and 29 February', () => {
  it('reads the calendar in America/Sao_Paulo and celebrates 29/02 on 28/02 in non-leap years only', () => {
    // 02:30 UTC is still the previous day (23:30) in Brasília.
    expect(localDay(new Date('2027-03-16T02:30:00Z'))).toMatchObject({ date: '2027-03-15', hour: 23 });
    expect(localDay(new Date('2027-03-15T12:00:00Z'))).toMatchObject({ date: '2027-03-15', hour: 9 });
    expect(monthDaysOn(2027, '02-28')).toEqual(['02-28', '02-29']);
    expect(monthDaysOn(2028, '02-28')).toEqual(['02-28']);
    expect(monthDaysOn(2028, '02-29')).toEqual(['02-29']);
  });
});

describe.each(DATABASE_KINDS)('automations on %s', (kind) => {
  const engine = useEngineHarness(kind);
  let t: TestApp;
  let db: Db;
  let sink: SmtpSink;
  const json = { 'content-type': 'application/json' };
  beforeAll(() => {
    ({ t, db, sink } = engine);
  });

  /** A fresh worker process: its own deps object (nothing kept in memory between "restarts"). */
  const worker = (): AutomationDeps => ({ db, mailer: t.mailer, publicUrl: 'https://app.carteiro.test' });

  /** Delivers every queued message of the account's stream through the real engine to the loopback sink. */
  async function deliver() {
    await runEngineUntil(
      engine.newSender({ signers: [] }),
      async () => {
        const [left] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from messages m join campaigns c on c.id = m.campaign_id
               where c.kind = 'transactional' and m.status = 'queued'`,
        );
        return Number(left?.n) === 0;
      },
      'no transactional message queued',
    );
  }

  const received = (to: string) => sink.messages.filter((m) => m.to === to);

  async function account(creditMillis = 100_000) {
    const user = await signUp(t, { verified: true });
    if (creditMillis > 0) await creditAccount(db, user.accountId, creditMillis);
    await trustSenderAddress(db, user.accountId, FROM);
    const template = await createTemplate(db, user.accountId, {
      name: 'Boas-vindas',
      subject: 'Olá, {{ contato.nome }}!',
      html: WELCOME_HTML,
    });
    const second = await createTemplate(db, user.accountId, {
      name: 'Dicas',
      subject: 'Dicas para você',
      html: WELCOME_HTML.replace('Bem-vindo', 'Dicas'),
    });
    return { user, template: template.id, second: second.id };
  }

  async function createList(user: SignedInUser, name = 'Clientes') {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/lists',
      headers: { ...user.headers, ...json },
      payload: { name },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  async function addContact(user: SignedInUser, email: string, listIds: string[], fields: Record<string, string> = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: { ...user.headers, ...json },
      payload: { email, name: email.split('@')[0], listIds, fields },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  async function createAutomation(user: SignedInUser, payload: Record<string, unknown>) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/automations',
      headers: { ...user.headers, ...json },
      payload: { fromEmail: FROM, fromName: 'Loja Ação', ...payload },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  async function activate(user: SignedInUser, id: string) {
    const res = await t.app.inject({ method: 'POST', url: `/api/automations/${id}/activate`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  async function runsOf(automationId: string) {
    return queryRows<{ email: string; position: number; message_id: string | null }>(
      db,
      sql`select c.email, s.position, r.message_id from automation_step_runs r
            join automation_enrollments e on e.id = r.enrollment_id
            join contacts c on c.id = e.contact_id
            join automation_steps s on s.id = r.step_id
           where r.automation_id = ${automationId} order by c.email, s.position`,
    );
  }

  /** The report, checked against the count of the automation's history (what it read before migration 0064). */
  async function report(user: SignedInUser, id: string) {
    const res = await t.app.inject({ url: `/api/automations/${id}/report`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const { steps, ...counts } = await countedFromHistory(db, id);
    expect(body).toMatchObject({ ...counts, steps: steps.map((s) => expect.objectContaining(s)) });
    expect(body.steps).toHaveLength(steps.length);
    return body;
  }

  it('welcome series: fires once per contact and step across restarts, waits, charges, marketing form, report', async () => {
    const { user, template, second } = await account();
    const listId = await createList(user);
    await addContact(user, 'antes@cliente.com.br', [listId]); // already on the list: not welcomed
    const automation = await createAutomation(user, {
      name: 'Boas-vindas',
      trigger: { type: 'list_joined', listId },
      steps: [
        { waitAmount: 0, waitUnit: 'hours', templateId: template },
        { waitAmount: 2, waitUnit: 'days', templateId: second, subject: 'Dica 1 para {{ contato.nome }}' },
      ],
    });
    expect(automation).toMatchObject({ status: 'draft', steps: [{ position: 1 }, { position: 2 }] });
    // A draft enrolls nobody.
    await addContact(user, 'rascunho@cliente.com.br', [listId]);
    await tickAutomations(worker());
    expect(await runsOf(automation.id)).toEqual([]);

    const t0 = new Date(Date.now() + 1000);
    await activate(user, automation.id);
    await addContact(user, 'ana@cliente.com.br', [listId]);
    await addContact(user, 'bia@cliente.com.br', [listId]);
    const balanceBefore = await balanceOf(user.accountId);

    // Two "processes" tick at the same moment, then a restarted one ticks again: each step once.
    const [a, b] = await Promise.all([tickAutomations(worker(), t0), tickAutomations(worker(), t0)]);
    expect(a.sent + b.sent).toBe(2);
    expect((await tickAutomations(worker(), t0)).sent).toBe(0);
    const firstRuns = await runsOf(automation.id);
    expect(firstRuns.map((r) => [r.email, r.position])).toEqual([
      ['ana@cliente.com.br', 1],
      ['bia@cliente.com.br', 1],
    ]);
    expect(firstRuns.every((r) => r.message_id !== null)).toBe(true);
    // Charged like any message: 2 × the price (5 millis).
    expect(await balanceOf(user.accountId)).toBe(balanceBefore - 10);
    // The statement says what the charge was for: the automation, not an API call.
    const lines = await queryRows<{ description: string }>(
      db,
      sql`select description from ledger_entries where account_id = ${user.accountId} and kind = 'send'`,
    );
    expect(lines.map((l) => l.description)).toEqual([expect.stringMatching(/^Envio de automação: 2 e-mails/)]);

    await deliver();
    const [welcome] = received('ana@cliente.com.br');
    const mail = await simpleParser(welcome?.raw as Buffer);
    expect(mail.subject).toBe('Olá, ana!');
    expect(mail.html).toContain('Bem-vindo, ana!');
    // Marketing form: List-Unsubscribe (one-click) like a campaign message.
    expect(welcome?.raw.toString()).toMatch(/\r\nList-Unsubscribe: <https:\/\/app\.carteiro\.test\/u\/[0-9a-f]+>\r\n/);
    expect(String(mail.headers.get('feedback-id'))).toMatch(/:marketing:carteiro$/);
    expect(received('antes@cliente.com.br')).toHaveLength(0);
    expect(received('rascunho@cliente.com.br')).toHaveLength(0);

    // Step 2 waits two days from step 1.
    expect((await tickAutomations(worker(), new Date(t0.getTime() + DAY))).sent).toBe(0);
    const later = new Date(t0.getTime() + 2 * DAY + 60_000);
    expect((await tickAutomations(worker(), later)).sent).toBe(2);
    expect((await tickAutomations(worker(), new Date(later.getTime() + 10 * DAY))).sent).toBe(0);
    await deliver();
    const tip = await simpleParser(received('bia@cliente.com.br')[1]?.raw as Buffer);
    expect(tip.subject).toBe('Dica 1 para bia');
    expect(received('ana@cliente.com.br')).toHaveLength(2);

    // A human open of one step-1 message counts in the report; a machine open does not.
    const [ana] = firstRuns;
    await db.execute(
      sql`insert into message_events (message_id, campaign_id, account_id, kind, machine)
          select m.id, m.campaign_id, m.account_id, k.kind, k.machine from messages m,
                 (values ('open', false), ('click', false), ('open', true)) as k(kind, machine)
           where m.id = ${ana?.message_id}`,
    );
    expect(await report(user, automation.id)).toMatchObject({
      enrolled: 2,
      active: 0,
      completed: 2,
      exited: 0,
      steps: [
        { position: 1, templateName: 'Boas-vindas', sent: 2, opens: 1, clicks: 1 },
        { position: 2, templateName: 'Dicas', sent: 2, opens: 0, clicks: 0 },
      ],
    });
  });

  it('a contact who unsubscribes (dashboard or the message link) leaves every automation', async () => {
    const { user, template, second } = await account();
    const listId = await createList(user);
    const steps = [
      { waitAmount: 0, waitUnit: 'hours', templateId: template },
      { waitAmount: 1, waitUnit: 'days', templateId: second },
    ];
    const one = await createAutomation(user, { name: 'Um', trigger: { type: 'list_joined', listId }, steps });
    const two = await createAutomation(user, { name: 'Dois', trigger: { type: 'list_joined', listId }, steps });
    await activate(user, one.id);
    await activate(user, two.id);
    const t0 = new Date(Date.now() + 1000);
    const carla = await addContact(user, 'carla@cliente.com.br', [listId]);
    await addContact(user, 'davi@cliente.com.br', [listId]);
    await addContact(user, 'eva@cliente.com.br', [listId]);
    expect((await tickAutomations(worker(), t0)).sent).toBe(6);
    await deliver();

    // Carla: unsubscribed from the dashboard. Davi: follows the unsubscribe link of his automation e-mail.
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/bulk',
      headers: { ...user.headers, ...json },
      payload: { action: 'unsubscribe', ids: [carla] },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const davisRaw = received('davi@cliente.com.br')[0]?.raw.toString() as string;
    const token = davisRaw.match(/List-Unsubscribe: <https:\/\/app\.carteiro\.test\/u\/([0-9a-f]+)>/)?.[1] as string;
    const unsub = await t.app.inject({
      method: 'POST',
      url: `/u/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(unsub.statusCode, unsub.body).toBeLessThan(300);
    // The link of a stream message finds the account's contact by address: Davi is unsubscribed like Carla.
    const statuses = await t.database.db
      .select({ email: contacts.email, status: contacts.status })
      .from(contacts)
      .where(eq(contacts.accountId, user.accountId));
    expect(Object.fromEntries(statuses.map((c) => [c.email, c.status]))).toMatchObject({
      'carla@cliente.com.br': 'unsubscribed',
      'davi@cliente.com.br': 'unsubscribed',
      'eva@cliente.com.br': 'subscribed',
    });

    const result = await tickAutomations(worker(), new Date(t0.getTime() + DAY + 60_000));
    expect(result.exited).toBe(4);
    expect(result.sent).toBe(2); // only Eva, in both automations
    for (const id of [one.id, two.id]) {
      expect((await runsOf(id)).map((r) => `${r.email}#${r.position}`)).toEqual([
        'carla@cliente.com.br#1',
        'davi@cliente.com.br#1',
        'eva@cliente.com.br#1',
        'eva@cliente.com.br#2',
      ]);
      expect(await report(user, id)).toMatchObject({ enrolled: 3, completed: 1, exited: 2, active: 0 });
    }
  });

  it('a short balance refuses the step, pauses the automation with a pt-BR reason and one e-mail; resume sends it once', async () => {
    const { user, template } = await account(7); // pays one message (5), not two
    const listId = await createList(user);
    const automation = await createAutomation(user, {
      name: 'Cupom',
      trigger: { type: 'list_joined', listId },
      steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template }],
    });
    await activate(user, automation.id);
    const t0 = new Date(Date.now() + 1000);
    await addContact(user, 'fabio@cliente.com.br', [listId]);
    await addContact(user, 'gil@cliente.com.br', [listId]);
    const mailBefore = (await t.sentMail()).length;

    expect((await tickAutomations(worker(), t0)).sent).toBe(0);
    expect((await tickAutomations(worker(), t0)).sent).toBe(0); // paused: nothing tried again
    expect(await runsOf(automation.id)).toEqual([]);
    expect(await balanceOf(user.accountId)).toBe(7);
    const view = (await t.app.inject({ url: `/api/automations/${automation.id}`, headers: user.headers })).json();
    expect(view.status).toBe('paused');
    expect(view.pausedReason).toMatch(/^Passo 1: Saldo insuficiente: faltam R\$\s0,003 para enviar estas 2 mensagens/);
    const mails = (await t.sentMail()).slice(0, (await t.sentMail()).length - mailBefore);
    const pausedMails = mails.filter((m) => m.subject === 'Automação pausada: Cupom');
    expect(pausedMails).toHaveLength(1);
    expect(pausedMails[0]?.to).toContain(user.email);

    await creditAccount(db, user.accountId, 1_000);
    await activate(user, automation.id); // "Retomar"
    expect((await tickAutomations(worker(), t0)).sent).toBe(2);
    expect((await tickAutomations(worker(), new Date(t0.getTime() + DAY))).sent).toBe(0);
    expect((await runsOf(automation.id)).map((r) => r.email)).toEqual(['fabio@cliente.com.br', 'gil@cliente.com.br']);
    expect(await balanceOf(user.accountId)).toBe(1_007 - 10);
  });

  it('a template deleted after activation pauses the automation with the reason instead of failing each tick', async () => {
    const { user, template, second } = await account();
    const automation = await createAutomation(user, {
      name: 'Sequência',
      trigger: { type: 'api_event', eventName: 'cadastro' },
      steps: [
        { waitAmount: 0, waitUnit: 'hours', templateId: template },
        { waitAmount: 1, waitUnit: 'days', templateId: second },
      ],
    });
    await activate(user, automation.id);
    const contactId = await addContact(user, 'lia@cliente.com.br', []);
    expect(contactId).toBeTruthy();
    const secret = await createApiKeyFor(t, user, 'send_only');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: bearer(secret, json),
      payload: { email: 'lia@cliente.com.br', name: 'cadastro' },
    });
    expect(res.json().enrolled).toBe(1);
    const t0 = new Date(Date.now() + 1000);
    expect((await tickAutomations(worker(), t0)).sent).toBe(1);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/templates/${second}`, headers: user.headers });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await tickAutomations(worker(), new Date(t0.getTime() + 2 * DAY))).sent).toBe(0);
    const view = (await t.app.inject({ url: `/api/automations/${automation.id}`, headers: user.headers })).json();
    expect(view).toMatchObject({ status: 'paused', pausedReason: 'Passo 2: Modelo não encontrado nesta conta.' });
    // "Retomar" says what to fix first.
    const resume = await t.app.inject({
      method: 'POST',
      url: `/api/automations/${automation.id}/activate`,
      headers: user.headers,
    });
    expect(resume.statusCode).toBe(400);
    expect(resume.json().error.message).toBe('Passo 2: o modelo escolhido não existe nesta conta.');
    expect((await runsOf(automation.id)).map((r) => r.position)).toEqual([1]);
  });

  it('double opt-in: the contact enters when the subscription is confirmed, not while pending', async () => {
    const { user, template } = await account();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/lists',
      headers: { ...user.headers, ...json },
      payload: { name: 'Newsletter', optIn: 'double' },
    });
    const listId = res.json().id as string;
    const automation = await createAutomation(user, {
      name: 'Confirmados',
      trigger: { type: 'list_joined', listId },
      steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template }],
    });
    // Pending since before the activation (the form was filled in), confirmed after it.
    const contactId = await addContact(user, 'hugo@cliente.com.br', []);
    await db.execute(
      sql`insert into list_memberships (list_id, contact_id, status) values (${listId}, ${contactId}, 'pending')`,
    );
    await db.execute(
      sql`insert into subscription_consents (account_id, list_id, contact_id, form_id, consent_text, opt_in)
          values (${user.accountId}, ${listId}, ${contactId}, ${`${listId}:hospedado`}, 'Quero receber', 'double')`,
    );
    await activate(user, automation.id);
    const t0 = new Date(Date.now() + 1000);
    expect((await tickAutomations(worker(), t0)).enrolled).toBe(0);
    await db.execute(
      sql`update subscription_consents set confirmed_at = now() + interval '1 second' where contact_id = ${contactId}`,
    );
    await db.execute(
      sql`update list_memberships set status = 'subscribed' where list_id = ${listId} and contact_id = ${contactId}`,
    );
    const result = await tickAutomations(worker(), t0);
    expect(result).toMatchObject({ enrolled: 1, sent: 1 });
  });

  it('birthday: at the chosen hour in Brasília, once per contact and year; 29/02 on 28/02 in non-leap years', async () => {
    const { user, template } = await account();
    const fields = (d: string) => ({ aniversario: d });
    await addContact(user, 'iso@cliente.com.br', [], fields('1990-03-15'));
    await addContact(user, 'br@cliente.com.br', [], fields('15/03/1985'));
    await addContact(user, 'curta@cliente.com.br', [], fields('15/03'));
    await addContact(user, 'outra@cliente.com.br', [], fields('16/03/1985'));
    await addContact(user, 'bissexto@cliente.com.br', [], fields('29/02/1992'));
    await addContact(user, 'sem@cliente.com.br', [], {});
    const automation = await createAutomation(user, {
      name: 'Aniversário',
      trigger: { type: 'date_field', field: 'aniversario', hour: 9 },
      steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template }],
    });
    await activate(user, automation.id);
    const emails = async () => (await runsOf(automation.id)).map((r) => r.email);

    // 2027 is not a leap year: 29/02 is celebrated on 28/02 (09:00 in Brasília = 12:00 UTC).
    await tickAutomations(worker(), new Date('2027-02-28T13:00:00Z'));
    expect(await emails()).toEqual(['bissexto@cliente.com.br']);
    // 08:30 in Brasília (11:30 UTC): not yet.
    expect((await tickAutomations(worker(), new Date('2027-03-15T11:30:00Z'))).enrolled).toBe(0);
    // 09:05: the three 15/03 birthdays, whatever the way the date is written; later that day nothing more.
    expect((await tickAutomations(worker(), new Date('2027-03-15T12:05:00Z'))).sent).toBe(3);
    expect((await tickAutomations(worker(), new Date('2027-03-15T20:00:00Z'))).sent).toBe(0);
    expect(await emails()).toEqual([
      'bissexto@cliente.com.br',
      'br@cliente.com.br',
      'curta@cliente.com.br',
      'iso@cliente.com.br',
    ]);
    // 2028 is a leap year: on 29/02, not 28/02.
    await tickAutomations(worker(), new Date('2028-02-28T13:00:00Z'));
    expect((await emails()).filter((e) => e.startsWith('bissexto'))).toHaveLength(1);
    await tickAutomations(worker(), new Date('2028-02-29T13:00:00Z'));
    expect((await emails()).filter((e) => e.startsWith('bissexto'))).toHaveLength(2);
    // Next year: again, once.
    expect((await tickAutomations(worker(), new Date('2028-03-15T12:05:00Z'))).sent).toBe(3);
    expect((await emails()).filter((e) => e === 'iso@cliente.com.br')).toHaveLength(2);
    expect(await emails()).not.toContain('outra@cliente.com.br');
  });

  it('birthday from an import: a date column in dd/mm/aaaa (also d/m/aaaa) fires; 31/02 is refused at import', async () => {
    const { user, template } = await account();
    const csv =
      'email;nome;aniversario\nana@cliente.com.br;Ana;15/03/1985\ncaio@cliente.com.br;Caio;5/3/1990\n' +
      'bia@cliente.com.br;Bia;31/02/2000\n';
    const up = await uploadImport(db, user.accountId, Readable.from([Buffer.from(csv)]), 'clientes.csv');
    expect(up.suggestedTypes).toEqual({ aniversario: 'date' });
    await startImport(db, user.accountId, up.importId, {
      mapping: up.suggestedMapping,
      fieldTypes: up.suggestedTypes,
      legalBasis: 'consent',
      consentSource: 'cadastro na loja',
      updateExisting: false,
    });
    await runImport(db, up.importId, {
      publicUrl: 'https://app.carteiro.test',
      secret: 'x'.repeat(40),
      sendConfirmations: sendTransactional,
    });
    const automation = await createAutomation(user, {
      name: 'Aniversário',
      trigger: { type: 'date_field', field: 'aniversario', hour: 9 },
      steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template }],
    });
    await activate(user, automation.id);
    // 09:05 in Brasília on 05/03 and on 15/03: each birthday once ("5/3/1990" was stored as 1990-03-05).
    expect((await tickAutomations(worker(), new Date('2027-03-05T12:05:00Z'))).sent).toBe(1);
    expect((await tickAutomations(worker(), new Date('2027-03-15T12:05:00Z'))).sent).toBe(1);
    expect((await runsOf(automation.id)).map((r) => r.email)).toEqual(['ana@cliente.com.br', 'caio@cliente.com.br']);
    const imported = await db.select().from(contacts).where(eq(contacts.accountId, user.accountId));
    expect(imported.map((c) => [c.email, c.fields])).toEqual(
      expect.arrayContaining([
        ['ana@cliente.com.br', { aniversario: '1985-03-15' }],
        ['caio@cliente.com.br', { aniversario: '1990-03-05' }],
      ]),
    );
    expect(imported.map((c) => c.email)).not.toContain('bia@cliente.com.br');
  });

  it('API event: POST /api/v1/events enrolls the contact once, with its data; other accounts see nothing', async () => {
    const { user, template } = await account();
    const automation = await createAutomation(user, {
      name: 'Pós-compra',
      trigger: { type: 'api_event', eventName: 'pedido_pago' },
      steps: [{ waitAmount: 1, waitUnit: 'hours', templateId: template }],
    });
    await activate(user, automation.id);
    await addContact(user, 'joao@cliente.com.br', []);
    const secret = await createApiKeyFor(t, user, 'send_only');
    const event = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/events', headers: bearer(secret, json), payload });

    const first = await event({ email: 'Joao@Cliente.com.br', name: 'pedido_pago', data: { pedido: '777' } });
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toEqual({ enrolled: 1, automationIds: [automation.id] });
    expect((await event({ email: 'joao@cliente.com.br', name: 'pedido_pago' })).json().enrolled).toBe(0);
    expect((await event({ email: 'joao@cliente.com.br', name: 'outro_evento' })).json().enrolled).toBe(0);
    const unknown = await event({ email: 'ninguem@cliente.com.br', name: 'pedido_pago' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toContain('Contato não encontrado');

    // The event's data is the template's `dados` (declared) and, under its older name, `evento` (ADR 0035).
    await updateTemplate(db, user.accountId, template, {
      html: WELCOME_HTML.replace('<p>Pedido {{', '<p>Dados {{ dados.pedido }}</p><p>Pedido {{'),
      variables: ['pedido'],
    });
    // Waits its hour, then sends with the event's data merged.
    expect((await tickAutomations(worker(), new Date(Date.now() + 30 * 60_000))).sent).toBe(0);
    expect((await tickAutomations(worker(), new Date(Date.now() + HOUR + 60_000))).sent).toBe(1);
    await deliver();
    const mail = await simpleParser(received('joao@cliente.com.br')[0]?.raw as Buffer);
    expect(mail.html).toContain('Pedido 777');
    expect(mail.html).toContain('Dados 777');

    // Account B: cannot read, change, activate or report A's automation; its events never reach A's.
    const other = await account();
    for (const req of [
      { method: 'GET' as const, url: `/api/automations/${automation.id}` },
      { method: 'GET' as const, url: `/api/automations/${automation.id}/report` },
      { method: 'POST' as const, url: `/api/automations/${automation.id}/pause` },
      { method: 'POST' as const, url: `/api/automations/${automation.id}/activate` },
      { method: 'DELETE' as const, url: `/api/automations/${automation.id}` },
    ]) {
      const res = await t.app.inject({ ...req, headers: other.user.headers });
      expect(res.statusCode, req.url).toBe(404);
    }
    const list = await t.app.inject({ url: '/api/automations', headers: other.user.headers });
    expect(list.json().items).toEqual([]);
    await addContact(other.user, 'joao@cliente.com.br', []);
    const otherSecret = await createApiKeyFor(t, other.user, 'send_only');
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: bearer(otherSecret, json),
      payload: { email: 'joao@cliente.com.br', name: 'pedido_pago' },
    });
    expect(cross.json()).toEqual({ enrolled: 0, automationIds: [] });
    // B cannot use A's template in its own automation.
    const stolen = await t.app.inject({
      method: 'POST',
      url: '/api/automations',
      headers: { ...other.user.headers, ...json },
      payload: {
        name: 'X',
        fromEmail: FROM,
        trigger: { type: 'api_event', eventName: 'x' },
        steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template }],
      },
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.message).toContain('o modelo escolhido não existe nesta conta');
  });

  it('API event with re-entry per event: each new order enters again, the same order twice once, a missing key is a 400', async () => {
    const { user, template } = await account();
    const perOrder = await createAutomation(user, {
      name: 'Pedido pago',
      trigger: { type: 'api_event', eventName: 'pedido_pago', eventKey: 'pedido' },
      steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template }],
    });
    expect(perOrder.trigger).toEqual({ type: 'api_event', eventName: 'pedido_pago', eventKey: 'pedido' });
    await activate(user, perOrder.id);
    await addContact(user, 'rita@cliente.com.br', []);
    const secret = await createApiKeyFor(t, user, 'send_only');
    const event = (data?: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: bearer(secret, json),
        payload: { email: 'rita@cliente.com.br', name: 'pedido_pago', ...(data ? { data } : {}) },
      });

    expect((await event({ pedido: '1001' })).json()).toEqual({ enrolled: 1, automationIds: [perOrder.id] });
    // The same order again (a retry of the integration): nothing; another order: enters again.
    expect((await event({ pedido: '1001' })).json().enrolled).toBe(0);
    expect((await event({ pedido: 1002 })).json().enrolled).toBe(1);
    const missing = await event({ total: '10,00' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: 'validation_failed',
      details: { fields: [{ path: 'data.pedido' }] },
    });
    expect(missing.json().error.message).toContain('Pedido pago');
    expect((await event()).statusCode).toBe(400);

    // Each order's message goes out with its own data, once.
    expect((await tickAutomations(worker(), new Date(Date.now() + 60_000))).sent).toBe(2);
    expect((await tickAutomations(worker(), new Date(Date.now() + 120_000))).sent).toBe(0);
    await deliver();
    const bodies = await Promise.all(
      received('rita@cliente.com.br').map(async (m) => (await simpleParser(m.raw)).html as string),
    );
    expect(bodies.map((b) => b.match(/Pedido (\d+)/)?.[1]).sort()).toEqual(['1001', '1002']);

    // Switching back to once per contact: the contact, already in, does not enter again.
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/automations/${perOrder.id}`,
      headers: { ...user.headers, ...json },
      payload: {
        name: 'Pedido pago',
        fromEmail: FROM,
        trigger: { type: 'api_event', eventName: 'pedido_pago' },
        steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template }],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await event({ pedido: '1003' })).json().enrolled).toBe(1);
    expect((await event({ pedido: '1004' })).json().enrolled).toBe(0);
    // The step kept its position, so its id and its count: the two orders' messages, and the third's.
    expect((await tickAutomations(worker(), new Date(Date.now() + 180_000))).sent).toBe(1);
    expect(await report(user, perOrder.id)).toMatchObject({ enrolled: 3, steps: [{ sent: 3 }] });
  });

  it('refuses, in pt-BR, templates without the unsubscribe link and activation without a verified sender', async () => {
    const { user } = await account();
    const bare = await createTemplate(db, user.accountId, { name: 'Sem link', subject: 'Oi', html: '<p>Oi</p>' });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/automations',
      headers: { ...user.headers, ...json },
      payload: {
        name: 'X',
        fromEmail: FROM,
        trigger: { type: 'api_event', eventName: 'x' },
        steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: bare.id }],
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('não tem o link de descadastro');

    const good = await createTemplate(db, user.accountId, { name: 'Com link', subject: 'Oi', html: WELCOME_HTML });
    const automation = await createAutomation(user, {
      name: 'Remetente estranho',
      fromEmail: 'desconhecido@outra.com.br',
      trigger: { type: 'api_event', eventName: 'x' },
      steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: good.id }],
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/automations/${automation.id}/activate`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('sender_not_verified');
  });

  async function balanceOf(accountId: string) {
    const [row] = await queryRows<{ b: number }>(
      db,
      sql`select balance_millis as b from accounts where id = ${accountId}`,
    );
    return Number(row?.b);
  }
});
