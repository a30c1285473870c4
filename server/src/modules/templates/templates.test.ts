import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';

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

  it('offers the three pt-BR starters', async () => {
    const res = await call(a, 'GET', '/api/templates/starters');
    expect(res.json().items.map((s: { key: string }) => s.key)).toEqual(['newsletter', 'promocao', 'anuncio']);
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
});
