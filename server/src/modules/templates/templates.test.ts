import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';

describe.each(DATABASE_KINDS)('templates API on %s', (kind) => {
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

  it('offers the gallery of pt-BR starters, one per occasion, each with the identity footer', async () => {
    const res = await call(a, 'GET', '/api/templates/starters');
    const items = res.json().items as Array<{ key: string; name: string; description: string; html: string }>;
    expect(items.map((s) => s.key)).toEqual([
      'newsletter',
      'promocao',
      'anuncio',
      'black-friday',
      'dia-das-maes',
      'dia-dos-pais',
      'natal',
      'aniversario',
      'boas-vindas',
      'carrinho-abandonado',
      'reativacao',
      'dia-do-cliente',
      'volta-as-aulas',
    ]);
    for (const starter of items) {
      expect(starter.description, starter.key).not.toBe('');
      expect(starter.html, starter.key).toContain('data-carteiro-bloco="rodape"');
      expect(starter.html, starter.key).toContain('prefers-color-scheme: dark');
      // Links only to the placeholder site (the owner puts theirs); no picture or font from another host.
      const hosts = (starter.html.match(/(?:src|href)="https?:\/\/[^/"]+/g) ?? []).map((m) => m.replace(/^.*\/\//, ''));
      expect(new Set(hosts), starter.key).toEqual(new Set(['www.exemplo.com.br']));
    }
  });

  it('creates, edits, duplicates and deletes within the account only', async () => {
    const created = await call(a, 'POST', '/api/templates', {
      name: 'Boas-vindas',
      html: '<p>Oi {{ contato.nome }}</p><a href="{{ link_descadastro }}">Sair</a>',
      builderProject: { pages: [] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const edited = await call(a, 'PATCH', `/api/templates/${id}`, { name: 'Boas-vindas 2' });
    expect(edited.json()).toMatchObject({ name: 'Boas-vindas 2', builderProject: { pages: [] } });
    const copy = await call(a, 'POST', `/api/templates/${id}/duplicate`);
    expect(copy.json().name).toBe('Cópia de Boas-vindas 2');

    expect((await call(b, 'GET', `/api/templates/${id}`)).statusCode).toBe(404);
    expect((await call(b, 'PATCH', `/api/templates/${id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await call(b, 'DELETE', `/api/templates/${id}`)).statusCode).toBe(404);
    expect((await call(b, 'GET', '/api/templates')).json().items).toEqual([]);

    expect((await call(a, 'DELETE', `/api/templates/${id}`)).statusCode).toBe(204);
    expect((await call(a, 'GET', '/api/templates')).json().items.map((x: { name: string }) => x.name)).toEqual([
      'Cópia de Boas-vindas 2',
    ]);
  });

  it('refuses broken Liquid at save time with the line', async () => {
    const res = await call(a, 'POST', '/api/templates', {
      name: 'Quebrado',
      html: '<p>\n{{ contato.nome | nao_existe }}</p>',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Linha 2: filtro desconhecido "nao_existe"');
  });

  it('knows the account’s custom fields', async () => {
    await call(a, 'POST', '/api/contacts', { email: 'c@example.com', fields: { cidade: 'Natal' } });
    const ok = await call(a, 'POST', '/api/templates', { name: 'Cidade', html: '{{ contato.cidade }}' });
    expect(ok.statusCode, ok.body).toBe(201);
    const unknown = await call(b, 'POST', '/api/templates', { name: 'Cidade', html: '{{ contato.cidade }}' });
    expect(unknown.json().error.message).toBe('Linha 1: variável desconhecida contato.cidade');
  });

  it('takes per-message variables only when declared: dados.x undeclared is refused at save, naming it', async () => {
    const html =
      '<p>Pedido {{ dados.pedido }}</p>{% for item in dados.itens %}<li>{{ item.nome }}</li>{% endfor %}' +
      '<p>{{ dados.cliente.cidade }}</p>';
    const undeclared = await call(a, 'POST', '/api/templates', { name: 'Pedido', html, variables: ['pedido'] });
    expect(undeclared.statusCode).toBe(400);
    expect(undeclared.json().error.code).toBe('validation_failed');
    expect(undeclared.json().error.message).toBe(
      'Linha 1: a variável dados.itens não foi declarada: inclua "itens" nas variáveis do modelo (e mais 1 problema(s))',
    );
    const typo = await call(a, 'POST', '/api/templates', {
      name: 'Pedido',
      subject: 'Pedido {{ dados.pedidoo }}',
      html,
      variables: ['pedido', 'itens', 'cliente'],
    });
    expect(typo.json().error.message).toBe(
      'Assunto, linha 1: a variável dados.pedidoo não foi declarada: inclua "pedidoo" nas variáveis do modelo (você quis dizer dados.pedido?)',
    );
    const bad = await call(a, 'POST', '/api/templates', {
      name: 'Pedido',
      html,
      variables: ['pedido', 'pedido', '1x'],
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.details.fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['variables.1', 'variables.2']);

    const created = await call(a, 'POST', '/api/templates', {
      name: 'Pedido',
      subject: 'Pedido {{ dados.pedido }}',
      html,
      variables: ['pedido', 'itens', 'cliente'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect(created.json().variables).toEqual(['pedido', 'itens', 'cliente']);
    // A variable still used cannot leave the declaration; one no longer used can.
    const dropped = await call(a, 'PATCH', `/api/templates/${id}`, { variables: ['pedido', 'cliente'] });
    expect(dropped.json().error.message).toMatch(/^Linha 1: a variável dados\.itens não foi declarada/);
    const edited = await call(a, 'PATCH', `/api/templates/${id}`, { html: '<p>{{ dados.pedido }}</p>' });
    expect(edited.statusCode, edited.body).toBe(200);
    const narrowed = await call(a, 'PATCH', `/api/templates/${id}`, { variables: ['pedido'] });
    expect(narrowed.json().variables).toEqual(['pedido']);
    expect((await call(a, 'POST', `/api/templates/${id}/duplicate`)).json().variables).toEqual(['pedido']);

    // A campaign has no per-message data.
    const campaign = await call(a, 'POST', '/api/campaigns', {
      uuid: crypto.randomUUID(),
      name: 'Com dados',
      subject: 'Oi',
      template: '<p>{{ dados.pedido }}</p><a href="{{ link_descadastro }}">Sair</a>',
    });
    expect(campaign.statusCode).toBe(400);
    expect(campaign.json().error.message).toMatch(/^Linha 1: variável dados\.pedido indisponível aqui/);
  });

  it('previews dados with the data given (checked as a send) or [nome] placeholders', async () => {
    const created = await call(a, 'POST', '/api/templates', {
      name: 'Pedido pré-visualizado',
      subject: 'Pedido {{ dados.pedido }}',
      html: '<p>{% for item in dados.itens %}{{ item.nome }};{% endfor %}</p>',
      variables: ['pedido', 'itens'],
    });
    const id = created.json().id as string;
    const sample = await call(a, 'POST', `/api/templates/${id}/preview`, {});
    expect(sample.json().subject).toBe('Pedido [pedido]');
    const real = await call(a, 'POST', `/api/templates/${id}/preview`, {
      data: { pedido: '1042', itens: [{ nome: 'Café' }, { nome: 'Pão' }] },
    });
    expect(real.json().subject).toBe('Pedido 1042');
    expect(real.json().html).toContain('Café;Pão;');
    const missing = await call(a, 'POST', `/api/templates/${id}/preview`, { data: { pedido: '1042' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: 'validation_failed',
      details: { fields: [{ path: 'data.itens' }] },
    });
    const extra = await call(a, 'POST', `/api/templates/${id}/preview`, {
      data: { pedido: '1', itens: [], cupom: 'X' },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error).toMatchObject({ code: 'unknown_fields', details: { unknown: ['data.cupom'] } });
  });

  it('previews a library template with real Liquid (sample data or a chosen contact) and test-sends it', async () => {
    const contact = await call(a, 'POST', '/api/contacts', {
      email: 'bia@example.com',
      name: 'Bia <b>Reis</b>',
      fields: { cidade: 'Olinda' },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    const starters = (await call(a, 'GET', '/api/templates/starters')).json().items as Array<{
      name: string;
      subject: string;
      html: string;
    }>;
    const newsletter = starters[0] as { name: string; subject: string; html: string };
    const created = await call(a, 'POST', '/api/templates', {
      name: newsletter.name,
      subject: 'Oi {{ contato.nome | default: "cliente" }} de {{ contato.cidade | default: "algum lugar" }}',
      html: newsletter.html,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;

    const sample = await call(a, 'POST', `/api/templates/${id}/preview`, {});
    expect(sample.statusCode, sample.body).toBe(200);
    expect(sample.json().subject).toBe('Oi Maria Silva de São Paulo');
    // Real Liquid: tags and {% if %} are rendered, never shown raw; the footer carries the account's name.
    expect(sample.json().html).not.toMatch(/\{\{|\{%/);
    expect(sample.json().text).toContain('Descadastrar');

    const forContact = (await call(a, 'POST', `/api/templates/${id}/preview`, { contactId: contact.json().id })).json();
    expect(forContact.subject).toBe('Oi Bia <b>Reis</b> de Olinda');
    expect(forContact.html).toContain('Bia &lt;b&gt;Reis&lt;/b&gt;');
    // B cannot preview A's template, nor A's template with B's… and A cannot use B's contact.
    expect((await call(b, 'POST', `/api/templates/${id}/preview`, {})).statusCode).toBe(404);
    const foreignContact = (await call(b, 'POST', '/api/contacts', { email: 'de-b@example.com' })).json();
    expect((await call(a, 'POST', `/api/templates/${id}/preview`, { contactId: foreignContact.id })).statusCode).toBe(
      404,
    );

    // Template tests go out From the account's default sender, which must pass the campaign sending rule.
    await trustSenderAddress(t.database.db, a.accountId, 'loja@example.com');
    expect((await call(a, 'PATCH', '/api/account', { defaultFromEmail: 'loja@example.com' })).statusCode).toBe(200);
    const tooMany = await call(a, 'POST', `/api/templates/${id}/test-send`, {
      emails: ['1@x.com', '2@x.com', '3@x.com', '4@x.com', '5@x.com', '6@x.com'],
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toMatch(/No máximo 5 e-mails por teste\./);
    const sent = await call(a, 'POST', `/api/templates/${id}/test-send`, {
      emails: ['modelo-1@example.com', 'modelo-2@example.com'],
      contactId: contact.json().id,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ sent: 2 });
    const mail = (await t.sentMail()).filter((m) => m.to.some((to) => to.startsWith('modelo-')));
    expect(mail).toHaveLength(2);
    expect(mail[0]?.subject).toBe('[TESTE] Oi Bia <b>Reis</b> de Olinda');
    expect(mail[0]?.text).toContain('Bia <b>Reis</b>');
    expect((await call(b, 'POST', `/api/templates/${id}/test-send`, { emails: ['x@example.com'] })).statusCode).toBe(
      404,
    );
  });
});
