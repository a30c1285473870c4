import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';

const HTML = `<html><body>
<p>Olá, {{ contato.nome | default: "cliente" }}!</p>
<p>{{ conta.nome }} — {{ conta.endereco }}</p>
<a href="{{ link_descadastro }}">Descadastrar</a>
</body></html>`;

describe.each(DATABASE_KINDS)('campaigns API on %s', (kind) => {
  let t: TestApp;
  let a: SignedInUser;
  let b: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await signUp(t, { verified: true });
    b = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (user: SignedInUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload }) });

  async function create(user: SignedInUser, fields: Record<string, unknown> = {}) {
    const res = await call(user, 'POST', '/api/campaigns', {
      uuid: randomUUID(),
      name: 'Campanha',
      subject: 'Oi {{ contato.nome }}',
      template: HTML,
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  it('creates a draft owned by the session account, never the body', async () => {
    const uuid = randomUUID();
    const res = await call(a, 'POST', '/api/campaigns', { uuid, name: 'Boas-vindas', created_by: b.accountId });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ uuid, createdBy: a.accountId, status: 'draft', name: 'Boas-vindas' });
    const again = await call(a, 'POST', '/api/campaigns', { uuid, name: 'Outra' });
    expect(again.statusCode).toBe(409);
  });

  it('isolates accounts: B gets 404 on A’s campaign and lists only its own, newest update first', async () => {
    const first = await create(a, { name: 'Primeira' });
    const second = await create(a, { name: 'Segunda' });
    await create(b, { name: 'De B' });
    // Touch the first so it becomes the most recently updated.
    expect((await call(a, 'PATCH', `/api/campaigns/${first.id}`, { name: 'Primeira editada' })).statusCode).toBe(200);

    for (const [method, url, body] of [
      ['GET', `/api/campaigns/${first.id}`],
      ['PATCH', `/api/campaigns/${first.id}`, { name: 'x' }],
      ['DELETE', `/api/campaigns/${first.id}`],
      ['POST', `/api/campaigns/${first.id}/duplicate`],
      ['POST', `/api/campaigns/${first.id}/preview`, {}],
      ['GET', `/api/campaigns/${first.id}/summary`],
    ] as const) {
      const res = await call(b, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.message).toBe('Campanha não encontrada.');
    }

    const listA = (await call(a, 'GET', '/api/campaigns')).json().items as Array<{
      id: string;
      createdBy: string;
      updatedAt: string;
    }>;
    expect(listA.every((c) => c.createdBy === a.accountId)).toBe(true);
    expect(listA[0]?.id).toBe(first.id);
    expect(listA[1]?.id).toBe(second.id);
    const times = listA.map((c) => c.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    const listB = (await call(b, 'GET', '/api/campaigns')).json().items as Array<{ name: string }>;
    expect(listB.map((c) => c.name)).toEqual(['De B']);
  });

  it('reports Liquid problems with the line at save time', async () => {
    const res = await call(a, 'POST', '/api/campaigns', {
      uuid: randomUUID(),
      name: 'Com erro',
      template: '<p>a</p>\n<p>b</p>\n<p>{{ contato.nomee }}</p>',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.message).toMatch(/^Linha 3: variável desconhecida contato\.nomee/);
    expect(res.json().error.details.problems[0]).toMatchObject({ part: 'html', line: 3 });
  });

  it('schedules in the future, unschedules, refuses edits once sending started and deletes drafts only', async () => {
    const list = await call(a, 'POST', '/api/lists', { name: 'Clientes' });
    expect(list.statusCode, list.body).toBe(201);
    const campaign = await create(a, { includeListIds: [list.json().id] });

    const past = await call(a, 'POST', `/api/campaigns/${campaign.id}/schedule`, { scheduledAt: '2020-01-01T10:00' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.message).toBe('Escolha uma data e hora no futuro.');

    const scheduled = await call(a, 'POST', `/api/campaigns/${campaign.id}/schedule`, {
      scheduledAt: '2099-03-01T09:00',
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    // Read in the account's time zone (America/Sao_Paulo, UTC−3).
    expect(scheduled.json()).toMatchObject({ status: 'scheduled', scheduledAt: '2099-03-01T12:00:00.000Z' });

    const cannotDelete = await call(a, 'DELETE', `/api/campaigns/${campaign.id}`);
    expect(cannotDelete.statusCode).toBe(409);

    const draft = await call(a, 'POST', `/api/campaigns/${campaign.id}/unschedule`);
    expect(draft.json()).toMatchObject({ status: 'draft', scheduledAt: null });
    const again = await call(a, 'POST', `/api/campaigns/${campaign.id}/unschedule`);
    expect(again.statusCode).toBe(409);

    const { transitionCampaign } = await import('./campaigns');
    await transitionCampaign(t.database.db, a.accountId, campaign.id, 'sending');
    const edit = await call(a, 'PATCH', `/api/campaigns/${campaign.id}`, { name: 'Tarde demais' });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error.message).toBe('Esta campanha já começou a ser enviada e não pode mais ser editada.');

    const other = await create(a);
    expect((await call(a, 'DELETE', `/api/campaigns/${other.id}`)).statusCode).toBe(204);
    expect((await call(a, 'GET', `/api/campaigns/${other.id}`)).statusCode).toBe(404);
  });

  it('refuses to schedule a campaign without the unsubscribe link', async () => {
    const list = await call(a, 'POST', '/api/lists', { name: 'Sem link' });
    const campaign = await create(a, { includeListIds: [list.json().id], template: '<p>Oi {{ contato.nome }}</p>' });
    const res = await call(a, 'POST', `/api/campaigns/${campaign.id}/schedule`, { scheduledAt: '2099-03-01T09:00' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/link de descadastro/);
  });

  it('duplicates as a new draft', async () => {
    const original = await create(a, { name: 'Original' });
    const res = await call(a, 'POST', `/api/campaigns/${original.id}/duplicate`);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Cópia de Original', status: 'draft', template: HTML });
    expect(res.json().uuid).not.toBe(original.uuid);
  });

  it('previews with a real contact, test-sends with the name filled in, summarises cost', async () => {
    const list = (await call(a, 'POST', '/api/lists', { name: 'Teste' })).json();
    const contact = await call(a, 'POST', '/api/contacts', {
      email: 'joana@example.com',
      name: 'Joana <b>Souza</b>',
      listIds: [list.id],
    });
    expect(contact.statusCode, contact.body).toBe(201);
    await call(a, 'POST', '/api/contacts', { email: 'rui@example.com', name: 'Rui', listIds: [list.id] });
    const campaign = await create(a, { includeListIds: [list.id] });

    const preview = (
      await call(a, 'POST', `/api/campaigns/${campaign.id}/preview`, { contactId: contact.json().id })
    ).json();
    expect(preview.subject).toBe('Oi Joana <b>Souza</b>');
    expect(preview.html).toContain('Olá, Joana &lt;b&gt;Souza&lt;/b&gt;!');
    expect(preview.text).toContain('Olá, Joana <b>Souza</b>!');
    const sample = (await call(a, 'POST', `/api/campaigns/${campaign.id}/preview`, {})).json();
    expect(sample.html).toContain('Olá, Maria Silva!');

    const tooMany = await call(a, 'POST', `/api/campaigns/${campaign.id}/test-send`, {
      emails: ['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com', 'e@x.com', 'f@x.com'],
    });
    expect(tooMany.statusCode).toBe(400);
    const sent = await call(a, 'POST', `/api/campaigns/${campaign.id}/test-send`, {
      emails: ['revisor@example.com'],
      contactId: contact.json().id,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = (await t.sentMail()).find((m) => m.to.includes('revisor@example.com'));
    expect(mail?.subject).toBe('[TESTE] Oi Joana <b>Souza</b>');
    expect(mail?.text).toContain('Olá, Joana <b>Souza</b>!');

    const summary = (await call(a, 'GET', `/api/campaigns/${campaign.id}/summary`)).json();
    expect(summary).toMatchObject({ recipients: 2, priceMillis: 5, costMillis: 10, balanceMillis: 0 });
    expect(summary.isBalanceSufficient).toBe(false);
  });

  it('serves the public viewer data generically and a pt-BR 404 for unknown ids', async () => {
    const campaign = await create(a);
    const res = await t.app.inject(`/api/public/campaigns/${campaign.id}/html`);
    expect(res.statusCode).toBe(200);
    expect(res.json().html).toContain('Olá, cliente!');
    const missing = await t.app.inject(`/api/public/campaigns/${randomUUID()}/html`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Campanha não encontrada.');
  });
});
