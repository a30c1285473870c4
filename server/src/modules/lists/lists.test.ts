import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';

describe.each(DATABASE_KINDS)('lists and bulk contact actions on %s', (kind) => {
  let t: TestApp;
  let a: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const json = { 'content-type': 'application/json' };
  const post = (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: { ...a.headers, ...json }, payload });
  const get = (url: string) => t.app.inject({ url, headers: a.headers });

  it('validates the name in pt-BR and creates single or double opt-in lists', async () => {
    const empty = await post('/api/lists', { name: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toContain('Informe o nome da lista');
    const double = await post('/api/lists', { name: 'Newsletter', optIn: 'double', description: 'Semanal' });
    expect(double.statusCode).toBe(201);
    expect(double.json()).toMatchObject({ name: 'Newsletter', optIn: 'double', description: 'Semanal' });
    expect((await post('/api/lists', { name: 'Outra', optIn: 'triple' })).statusCode).toBe(400);
  });

  it('counts contacts and subscribed ones, bulk adds/removes/deletes, edits settings and deletes keeping contacts', async () => {
    const list = (await post('/api/lists', { name: 'Clientes' })).json();
    const ids: string[] = [];
    for (const email of ['um@x.com', 'dois@x.com', 'tres@x.com', 'quatro@x.com']) {
      ids.push((await post('/api/contacts', { email })).json().id);
    }
    const [um, dois, tres, quatro] = ids as [string, string, string, string];

    const noList = await post('/api/contacts/bulk', { action: 'add_to_list', ids });
    expect(noList.statusCode).toBe(400);
    expect(noList.json().error.message).toBe('Escolha a lista.');
    const added = await post('/api/contacts/bulk', { action: 'add_to_list', ids, listId: list.id });
    expect(added.json()).toEqual({
      action: 'add_to_list',
      affected: 4,
      subscribed: 4,
      pending: 0,
      skipped: 0,
      confirmationsSent: 0,
    });
    await post('/api/contacts/bulk', { action: 'unsubscribe', ids: [dois] });
    expect((await get(`/api/lists/${list.id}`)).json()).toMatchObject({ contactCount: 4, subscribedCount: 3 });
    const listed = (await get('/api/lists')).json().items.find((l: { id: string }) => l.id === list.id);
    expect(listed).toMatchObject({ name: 'Clientes', contactCount: 4, subscribedCount: 3, optIn: 'single' });
    expect(typeof listed.createdAt).toBe('string');

    // The list's contacts, and its CSV export.
    const members = (await get(`/api/contacts?listId=${list.id}`)).json().items.map((c: { email: string }) => c.email);
    expect(members.sort()).toEqual(['dois@x.com', 'quatro@x.com', 'tres@x.com', 'um@x.com']);
    const csv = (await get(`/api/contacts/export.csv?listId=${list.id}&status=subscribed`)).body;
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toContain('um@x.com');
    expect(csv).not.toContain('dois@x.com');

    const removed = await post('/api/contacts/bulk', { action: 'remove_from_list', ids: [um], listId: list.id });
    expect(removed.json().affected).toBe(1);
    expect((await get(`/api/contacts/${um}`)).json().lists).toEqual([]);
    const deleted = await post('/api/contacts/bulk', { action: 'delete', ids: [tres] });
    expect(deleted.json().affected).toBe(1);
    expect((await get(`/api/contacts/${tres}`)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/contacts/${quatro}`, headers: a.headers })).statusCode,
    ).toBe(204);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/contacts/${quatro}`, headers: a.headers })).statusCode,
    ).toBe(404);
    expect((await get(`/api/lists/${list.id}`)).json()).toMatchObject({ contactCount: 1, subscribedCount: 0 });

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/lists/${list.id}`,
      headers: { ...a.headers, ...json },
      payload: { name: 'Clientes 2026', optIn: 'double' },
    });
    expect(patched.json()).toMatchObject({ name: 'Clientes 2026', optIn: 'double', contactCount: 1 });

    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/lists/${list.id}`, headers: a.headers })).statusCode,
    ).toBe(204);
    expect((await get(`/api/lists/${list.id}`)).statusCode).toBe(404);
    // The contacts stay in the account.
    expect((await get(`/api/contacts/${dois}`)).json()).toMatchObject({ email: 'dois@x.com', lists: [] });
    expect((await get(`/api/contacts/${um}`)).statusCode).toBe(200);
  });
});
