import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';

describe.each(DATABASE_KINDS)('compatibility API (spec §7) on %s', (kind) => {
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

  const post = (user: SignedInUser | null, url: string, payload: object, method: 'POST' | 'PATCH' = 'POST') =>
    t.app.inject({
      method,
      url,
      headers: user ? { ...user.headers, from: 'carteiro-web' } : { origin: t.origin },
      payload,
    });

  it('requires a session', async () => {
    const res = await post(null, '/firebase/get', { collection: 'campaigns', where: [] });
    expect(res.statusCode).toBe(401);
  });

  it('creates a campaign with created_by = current account and lists it by updated_at desc', async () => {
    const uuid = randomUUID();
    const created = await post(a, '/firebase', {
      collection: 'campaigns',
      data: { uuid, created_by: a.accountId, name: 'Primeira', template: '<p>{{ contato.nome }}</p>' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({
      id: created.json().id,
      uuid,
      created_by: a.accountId,
      status: 'draft',
    });
    const second = await post(a, '/firebase', {
      collection: 'campaigns',
      data: { uuid: randomUUID(), name: 'Segunda' },
    });
    expect(second.statusCode).toBe(201);

    const listed = await post(a, '/firebase/get', {
      collection: 'campaigns',
      where: [{ field: 'created_by', operator: '==', value: a.accountId }],
      order: [{ field: 'updated_at', type: 'desc' }],
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((c: { name: string }) => c.name)).toEqual(['Segunda', 'Primeira']);

    const none = await post(b, '/firebase/get', {
      collection: 'campaigns',
      where: [{ field: 'created_by', operator: '==', value: b.accountId }],
      order: [{ field: 'updated_at', type: 'desc' }],
    });
    expect(none.json()).toEqual({ empty: true });

    const single = await post(a, '/firebase/single', { collection: 'campaigns', id: created.json().id });
    expect(single.json()).toMatchObject({ uuid, name: 'Primeira' });
    const counted = await post(a, '/firebase/count', {
      collection: 'campaigns',
      where: [{ field: 'created_by', operator: '==', value: a.accountId }],
    });
    expect(counted.json()).toEqual({ count: 2 });

    const before = single.json().updated_at;
    const patched = await post(
      a,
      '/firebase',
      { collection: 'campaigns', id: created.json().id, data: { name: 'Renomeada', subject: 'Oi' } },
      'PATCH',
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({ name: 'Renomeada', subject: 'Oi' });
    expect(patched.json().data.updated_at > before).toBe(true);
  });

  it('finds and fetches the caller’s account by owner and by id', async () => {
    const byOwner = await post(a, '/firebase/get', {
      collection: 'account',
      where: [{ field: 'owner', operator: '==', value: a.userId }],
    });
    expect(byOwner.json()[0]).toMatchObject({ id: a.accountId, owner: a.userId });
    const byId = await post(a, '/firebase/get', { collection: 'account', id: a.accountId });
    expect(byId.json()).toHaveLength(1);
    expect(byId.json()[0].id).toBe(a.accountId);
    // Nobody else's accounts: falsy answer, as the client coerces it to "exists?".
    const other = await post(a, '/firebase/get', {
      collection: 'account',
      where: [{ field: 'owner', operator: '==', value: b.userId }],
    });
    expect(other.json()).toBe(false);

    const updated = await post(
      a,
      '/firebase',
      { collection: 'account', id: a.accountId, data: { address: 'Rua A, 1' } },
      'PATCH',
    );
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data.address).toBe('Rua A, 1');
  });

  it('creates an account owned by the caller with the client uuid', async () => {
    const c = await signUp(t, { verified: true });
    const uuid = randomUUID();
    const res = await post(c, '/firebase', {
      collection: 'account',
      data: { uuid, owner: c.userId, name: 'Loja Nova' },
    });
    expect([200, 201]).toContain(res.statusCode);
    expect(res.json().data.owner).toBe(c.userId);
    const forged = await post(c, '/firebase', { collection: 'account', data: { uuid: randomUUID(), owner: a.userId } });
    expect(forged.statusCode).toBe(403);
  });

  it('refuses unknown collections, fields and operators in pt-BR', async () => {
    const cases: Array<[string, object, RegExp]> = [
      ['/firebase/get', { collection: 'users', where: [] }, /Coleção desconhecida: "users"/],
      [
        '/firebase/get',
        { collection: 'campaigns', where: [{ field: 'template', operator: '==', value: 'x' }] },
        /Campo não permitido no filtro/,
      ],
      [
        '/firebase/get',
        { collection: 'campaigns', where: [{ field: 'status', operator: '>=', value: 'a' }] },
        /Operador não suportado/,
      ],
      [
        '/firebase/get',
        { collection: 'campaigns', where: [], order: [{ field: 'balance', type: 'desc' }] },
        /ordenação/,
      ],
      ['/firebase/count', { collection: '__proto__', where: [] }, /Coleção desconhecida/],
      [
        '/firebase',
        { collection: 'campaigns', data: { uuid: randomUUID(), name: 'x', status: 'sent' } },
        /Campo não permitido: "status"/,
      ],
      [
        '/firebase',
        { collection: 'account', data: { uuid: randomUUID(), balance_millis: 999999 } },
        /Campo não permitido: "balance_millis"/,
      ],
    ];
    for (const [url, payload, message] of cases) {
      const res = await post(a, url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
  });

  it('never reaches another account’s documents', async () => {
    const created = await post(a, '/firebase', {
      collection: 'campaigns',
      data: { uuid: randomUUID(), name: 'Só de A' },
    });
    const id = created.json().id;
    expect((await post(b, '/firebase/single', { collection: 'campaigns', id })).statusCode).toBe(404);
    expect((await post(b, '/firebase/get', { collection: 'campaigns', id })).statusCode).toBe(404);
    expect(
      (await post(b, '/firebase', { collection: 'campaigns', id, data: { name: 'roubada' } }, 'PATCH')).statusCode,
    ).toBe(404);
    expect((await post(b, '/firebase/get', { collection: 'account', id: a.accountId })).statusCode).toBe(404);
    expect(
      (await post(b, '/firebase', { collection: 'account', id: a.accountId, data: { name: 'x' } }, 'PATCH')).statusCode,
    ).toBe(404);
    const foreignFilter = await post(b, '/firebase/count', {
      collection: 'campaigns',
      where: [{ field: 'created_by', operator: '==', value: a.accountId }],
    });
    expect(foreignFilter.json()).toEqual({ count: 0 });
    const forged = await post(b, '/firebase', {
      collection: 'campaigns',
      data: { uuid: randomUUID(), name: 'x', created_by: a.accountId },
    });
    expect(forged.statusCode).toBe(403);
  });
});
