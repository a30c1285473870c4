import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { suppressEmail } from '../contacts/suppression';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { messages } from '../sending/messages.db';
import { campaigns } from './campaigns.db';

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
    // An owner named in the body is refused by name, never silently dropped (nor obeyed).
    const foreign = await call(a, 'POST', '/api/campaigns', { uuid, name: 'Boas-vindas', created_by: b.accountId });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toMatchObject({ code: 'unknown_fields', details: { unknown: ['created_by'] } });
    const res = await call(a, 'POST', '/api/campaigns', { uuid, name: 'Boas-vindas' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ uuid, createdBy: a.accountId, status: 'draft', name: 'Boas-vindas' });
    const again = await call(a, 'POST', '/api/campaigns', { uuid, name: 'Outra' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('campaign_exists');
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
      ['POST', `/api/campaigns/${first.id}/schedule`, { scheduledAt: '2099-03-01T09:00' }],
      ['POST', `/api/campaigns/${first.id}/unschedule`],
      ['POST', `/api/campaigns/${first.id}/test-send`, { emails: ['b@example.com'] }],
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

  it('refuses to schedule or send a campaign without the unsubscribe link, with a clear message', async () => {
    const list = await call(a, 'POST', '/api/lists', { name: 'Sem link' });
    for (const template of [
      '<p>Oi {{ contato.nome }}</p>',
      // A link hidden in an HTML comment is no link for the recipient.
      '<p>Oi</p><!-- <a href="{{ link_descadastro }}">Descadastrar</a> -->',
    ]) {
      const campaign = await create(a, { includeListIds: [list.json().id], fromEmail: 'loja@example.com', template });
      for (const [url, body] of [
        [`/api/campaigns/${campaign.id}/schedule`, { scheduledAt: '2099-03-01T09:00' }],
        [`/api/campaigns/${campaign.id}/send`, {}],
      ] as const) {
        const res = await call(a, 'POST', url, body);
        expect(res.statusCode, url).toBe(409);
        expect(res.json().error.code).toBe('campaign_not_ready');
        expect(res.json().error.message).toMatch(
          /^O modelo não tem o link de descadastro\. Inclua \{\{ link_descadastro \}\}/,
        );
      }
      expect((await call(a, 'GET', `/api/campaigns/${campaign.id}`)).json().status).toBe('draft');
    }
  });

  it('refuses to schedule or send before the footer identity (name, CNPJ/CPF, address) is complete', async () => {
    const c = await signUp(t, { verified: true, identity: false });
    const list = await call(c, 'POST', '/api/lists', { name: 'Clientes' });
    await call(c, 'POST', '/api/contacts', { email: 'ana@example.com', listIds: [list.json().id] });
    const campaign = await create(c, { includeListIds: [list.json().id], fromEmail: 'loja@example.com' });
    for (const [url, body] of [
      [`/api/campaigns/${campaign.id}/schedule`, { scheduledAt: '2099-03-01T09:00' }],
      [`/api/campaigns/${campaign.id}/send`, {}],
    ] as const) {
      const res = await call(c, 'POST', url, body);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().error.code).toBe('campaign_not_ready');
      expect(res.json().error.message).toBe(
        'Complete a identificação da empresa que aparece no rodapé de todo e-mail (nome da empresa (razão social), CNPJ ou CPF, endereço): é exigida antes do primeiro envio, como pede o código de autorregulamentação (CAPEM).',
      );
      expect(res.json().error.details).toEqual({
        check: 'identity',
        fix: { href: '/dashboard/settings?aba=conta', text: 'Completar a identificação' },
      });
    }
    const patched = await call(c, 'PATCH', '/api/account', {
      legalName: 'Padaria Pão Quente Ltda',
      taxId: '11.222.333/0001-81',
      address: 'Rua das Flores, 100 — Recife/PE',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Scheduling checks the From now, not only when the time comes (ADR 0012).
    const unverified = await call(c, 'POST', `/api/campaigns/${campaign.id}/schedule`, {
      scheduledAt: '2099-03-01T09:00',
    });
    expect(unverified.statusCode, unverified.body).toBe(403);
    expect(unverified.json().error).toMatchObject({ code: 'sender_not_verified', details: { field: 'fromEmail' } });
    expect(unverified.json().error.message).toContain('loja@example.com não está verificado');
    expect((await call(c, 'GET', `/api/campaigns/${campaign.id}`)).json().status).toBe('draft');
    await trustSenderAddress(t.database.db, c.accountId, 'loja@example.com');
    const scheduled = await call(c, 'POST', `/api/campaigns/${campaign.id}/schedule`, {
      scheduledAt: '2099-03-01T09:00',
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    // A new account is named as the person typed it, never "Conta de …" (it reaches recipients' footers).
    expect((await call(c, 'GET', '/api/account')).json().account.name).toBe('Maria Teste');
  });

  it('copies a library template into the campaign, which then edits its own copy', async () => {
    const library = await call(a, 'POST', '/api/templates', {
      name: 'Da biblioteca',
      subject: 'Novidades para {{ contato.nome }}',
      html: HTML,
      builderProject: { pages: [{ id: 'p1' }] },
    });
    expect(library.statusCode, library.body).toBe(201);
    const templateId = library.json().id;
    const res = await call(a, 'POST', '/api/campaigns', { uuid: randomUUID(), name: 'Com modelo', templateId });
    expect(res.statusCode, res.body).toBe(201);
    const campaign = res.json();
    expect(campaign).toMatchObject({
      template: HTML,
      templateProject: { pages: [{ id: 'p1' }] },
      subject: 'Novidades para {{ contato.nome }}',
    });

    // Editing the campaign's copy leaves the library alone, and editing the library leaves the campaign alone.
    const own = HTML.replace('Olá', 'Oi de novo');
    const edited = await call(a, 'PATCH', `/api/campaigns/${campaign.id}`, { template: own, templateProject: null });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await call(a, 'GET', `/api/templates/${templateId}`)).json()).toMatchObject({
      html: HTML,
      builderProject: { pages: [{ id: 'p1' }] },
    });
    await call(a, 'PATCH', `/api/templates/${templateId}`, { html: HTML.replace('Olá', 'Mudou na biblioteca') });
    expect((await call(a, 'GET', `/api/campaigns/${campaign.id}`)).json()).toMatchObject({
      template: own,
      templateProject: null,
    });
    // Deleting the library template does not empty the campaign.
    expect((await call(a, 'DELETE', `/api/templates/${templateId}`)).statusCode).toBe(204);
    expect((await call(a, 'GET', `/api/campaigns/${campaign.id}`)).json().template).toBe(own);

    // Another account's template cannot be copied.
    const foreign = (
      await call(b, 'POST', '/api/templates', { name: 'De B', html: '<a href="{{ link_descadastro }}">x</a>' })
    ).json();
    const refused = await call(a, 'POST', '/api/campaigns', {
      uuid: randomUUID(),
      name: 'Modelo alheio',
      templateId: foreign.id,
    });
    expect(refused.statusCode).toBe(404);
  });

  it('shows scheduled and sent campaigns of the account on the calendar, in the asked range only', async () => {
    const user = await signUp(t, { verified: true });
    const list = (await call(user, 'POST', '/api/lists', { name: 'Calendário' })).json();
    const scheduled = async (name: string, at: string) => {
      const campaign = await create(user, { name, includeListIds: [list.id] });
      const res = await call(user, 'POST', `/api/campaigns/${campaign.id}/schedule`, { scheduledAt: at });
      expect(res.statusCode, res.body).toBe(200);
      return campaign;
    };
    const march = await scheduled('Março', '2099-03-10T09:00');
    await scheduled('Abril', '2099-04-10T09:00');
    const cancelled = await scheduled('Cancelada', '2099-03-11T09:00');
    expect((await call(user, 'POST', `/api/campaigns/${cancelled.id}/cancel`)).statusCode).toBe(200);
    // A sent campaign shows at the time it started.
    const sent = await create(user, { name: 'Enviada' });
    const { transitionCampaign } = await import('./campaigns');
    await transitionCampaign(t.database.db, user.accountId, sent.id, 'sending', {
      startedAt: new Date('2099-03-05T15:00:00Z'),
    });
    await transitionCampaign(t.database.db, user.accountId, sent.id, 'sent');
    await create(user, { name: 'Rascunho' });
    await scheduled('Março de novo', '2099-03-12T09:00');
    // Another account's campaign scheduled in the same range stays out.
    const listB = (await call(b, 'POST', '/api/lists', { name: 'De B' })).json();
    const foreign = await create(b, { name: 'De B', includeListIds: [listB.id] });
    const foreignScheduled = await call(b, 'POST', `/api/campaigns/${foreign.id}/schedule`, {
      scheduledAt: '2099-03-10T09:00',
    });
    expect(foreignScheduled.statusCode, foreignScheduled.body).toBe(200);

    const res = await call(
      user,
      'GET',
      `/api/campaigns/calendar?from=${encodeURIComponent('2099-03-01T00:00:00-03:00')}&to=${encodeURIComponent('2099-04-01T00:00:00-03:00')}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as Array<{ id: string; name: string; status: string }>;
    expect(items.map((c) => [c.name, c.status])).toEqual([
      ['Enviada', 'sent'],
      ['Março', 'scheduled'],
      ['Março de novo', 'scheduled'],
    ]);
    expect(items[1]?.id).toBe(march.id);

    const bad = await call(user, 'GET', '/api/campaigns/calendar?from=ontem&to=amanha');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/Data inicial inválida/);
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
    await trustSenderAddress(t.database.db, a.accountId, 'loja-a@example.com');
    const campaign = await create(a, { includeListIds: [list.id], fromEmail: 'loja-a@example.com' });

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

  it('counts recipients exactly: deduplicated across lists, exclusions, suppressed and unsubscribed left out', async () => {
    const user = await signUp(t, { verified: true });
    const listId = async (name: string) => (await call(user, 'POST', '/api/lists', { name })).json().id as string;
    const [clientes, vip, excluir] = [await listId('Clientes'), await listId('VIP'), await listId('Excluir')];
    const contact = async (email: string, listIds: string[], status?: string) => {
      const res = await call(user, 'POST', '/api/contacts', { email, listIds, ...(status ? { status } : {}) });
      expect(res.statusCode, res.body).toBe(201);
    };
    await contact('so-clientes@example.com', [clientes]);
    await contact('nas-duas@example.com', [clientes, vip]); // counted once
    await contact('so-vip@example.com', [vip]);
    await contact('excluida@example.com', [clientes, excluir]); // in an excluded list
    await contact('descadastrada@example.com', [clientes, vip], 'unsubscribed');
    await contact('devolvida@example.com', [vip], 'bounced');
    await contact('suprimida@example.com', [clientes]);
    await suppressEmail(t.database.db, user.accountId, 'suprimida@example.com', 'manual');
    await contact('sem-lista@example.com', []);
    // Another account's contact in nothing of ours.
    await call(b, 'POST', '/api/contacts', { email: 'so-clientes@example.com' });

    const campaign = await create(user, { includeListIds: [clientes, vip], excludeListIds: [excluir] });
    const summary = await call(user, 'GET', `/api/campaigns/${campaign.id}/summary`);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toMatchObject({ recipients: 3, priceMillis: 5, costMillis: 15 });

    await call(user, 'PATCH', `/api/campaigns/${campaign.id}`, { excludeListIds: [] });
    expect((await call(user, 'GET', `/api/campaigns/${campaign.id}/summary`)).json().recipients).toBe(4);
    await call(user, 'PATCH', `/api/campaigns/${campaign.id}`, { includeListIds: [vip], excludeListIds: [clientes] });
    expect((await call(user, 'GET', `/api/campaigns/${campaign.id}/summary`)).json().recipients).toBe(1);
    await call(user, 'PATCH', `/api/campaigns/${campaign.id}`, { includeListIds: [], excludeListIds: [] });
    expect((await call(user, 'GET', `/api/campaigns/${campaign.id}/summary`)).json()).toMatchObject({
      recipients: 0,
      costMillis: 0,
    });
  });

  it('personalises the viewer for the token of one of its messages, generic for any other token', async () => {
    const contact = await call(a, 'POST', '/api/contacts', {
      email: 'leitora@example.com',
      name: 'Lia <i>Lima</i>',
    });
    expect(contact.statusCode, contact.body).toBe(201);
    const campaign = await create(a);
    const other = await create(a);
    // Only campaigns recipients have (or will have) are public: these two went out.
    await t.database.db
      .update(campaigns)
      .set({ status: 'sent', startedAt: new Date() })
      .where(inArray(campaigns.id, [campaign.id, other.id]));
    const token = 'ab'.repeat(20);
    await t.database.db.insert(messages).values({
      campaignId: campaign.id,
      accountId: a.accountId,
      contactId: contact.json().id,
      email: 'leitora@example.com',
      status: 'sent',
      token,
    });

    const viewer = (query: string, id = campaign.id) => t.app.inject(`/api/public/campaigns/${id}/html${query}`);
    const mine = await viewer(`?t=${token}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ personalised: true, subject: 'Oi Lia <i>Lima</i>' });
    expect(mine.json().html).toContain('Olá, Lia &lt;i&gt;Lima&lt;/i&gt;!');
    expect(mine.json().html).toContain(`href="${t.config.PUBLIC_URL}/u/${token}"`);

    for (const query of [`?t=${'cd'.repeat(20)}`, '?t=<script>', '']) {
      const generic = await viewer(query);
      expect(generic.statusCode).toBe(200);
      expect(generic.json().personalised).toBe(false);
      expect(generic.json().html).toContain('Olá, cliente!');
      expect(generic.json().html).not.toContain('Lia');
    }
    // The token belongs to another campaign: generic there.
    const elsewhere = (await viewer(`?t=${token}`, other.id)).json();
    expect(elsewhere.personalised).toBe(false);
    expect(elsewhere.html).not.toContain('Lia');
  });

  it('serves the public viewer data generically and a pt-BR 404 for unknown ids and drafts', async () => {
    const campaign = await create(a);
    const draft = await t.app.inject(`/api/public/campaigns/${campaign.id}/html`);
    expect(draft.statusCode).toBe(404);
    expect(draft.json().error.message).toBe('Campanha não encontrada.');
    await t.database.db
      .update(campaigns)
      .set({ status: 'scheduled', scheduledAt: new Date(Date.now() + 86_400_000) })
      .where(eq(campaigns.id, campaign.id));
    const res = await t.app.inject(`/api/public/campaigns/${campaign.id}/html`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().html).toContain('Olá, cliente!');
    const missing = await t.app.inject(`/api/public/campaigns/${randomUUID()}/html`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Campanha não encontrada.');
  });
});
