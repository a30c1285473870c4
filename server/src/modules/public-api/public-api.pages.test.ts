import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';

const json = { 'content-type': 'application/json' };

/** Lists of the API page by cursor, filter, and leave heavy content out of their items. */
describe.each(DATABASE_KINDS)('paginated lists of the public API on %s', (kind) => {
  let t: TestApp;
  let secret: string;
  let other: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { API_RATE_LIMIT: '100000' });
    secret = await createApiKeyFor(t, await signUp(t, { verified: true }));
    other = await createApiKeyFor(t, await signUp(t, { verified: true }));
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const post = async (url: string, payload: object, key = secret) => {
    const res = await t.app.inject({ method: 'POST', url, headers: bearer(key, json), payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const get = (url: string, key = secret) => t.app.inject({ url, headers: bearer(key) });

  /** Every item of a list, page by page (`limit` per page), checking each page's size and cursor. */
  async function walk(url: string, limit: number): Promise<Array<Record<string, unknown>>> {
    const items: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const sep = url.includes('?') ? '&' : '?';
      const res = await get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      expect(page.items.length).toBeLessThanOrEqual(limit);
      items.push(...page.items);
      cursor = page.nextCursor;
      if (!cursor) return items;
      expect(page.items.length).toBe(limit);
    }
    throw new Error('too many pages');
  }

  it('pages campaigns newest first, filters by status and name, and leaves the HTML out', async () => {
    const names = ['Promo 1', 'Promo 2', 'Boletim 3', 'Promo 4', 'Boletim 5'];
    const created: string[] = [];
    for (const name of names) {
      created.push((await post('/api/v1/campaigns', { name, subject: 'Oi', template: '<p>grande</p>' })).id);
    }
    await post('/api/v1/campaigns', { name: 'Promo de outra conta' }, other);
    const all = await walk('/api/v1/campaigns', 2);
    expect(all.map((c) => c.id)).toEqual([...created].reverse());
    for (const item of all) {
      expect(item).not.toHaveProperty('template');
      expect(item).not.toHaveProperty('templateProject');
      expect(item).toMatchObject({ isAbTest: false, status: 'draft' });
    }
    expect((await walk('/api/v1/campaigns?search=promo', 2)).map((c) => c.name)).toEqual([
      'Promo 4',
      'Promo 2',
      'Promo 1',
    ]);
    // Cancel one: the status filter takes one or several statuses.
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/campaigns/${created[0]}/cancel`, headers: bearer(secret) }))
        .statusCode,
    ).toBe(200);
    expect((await walk('/api/v1/campaigns?status=cancelled', 10)).map((c) => c.id)).toEqual([created[0]]);
    expect(await walk('/api/v1/campaigns?status=draft,cancelled', 10)).toHaveLength(5);
    const unknown = await get('/api/v1/campaigns?status=enviando');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toContain('Situação desconhecida: `enviando`');
    // A campaign edited while a client pages does not move (the order is by creation).
    const first = (await get('/api/v1/campaigns?limit=2')).json();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/campaigns/${created[1]}`,
      headers: bearer(secret, json),
      payload: { name: 'Promo 2 editada' },
    });
    const second = (await get(`/api/v1/campaigns?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).json();
    expect(second.items.map((c: { id: string }) => c.id)).toEqual([created[2], created[1]]);
    expect((await get('/api/v1/campaigns?cursor=naoeumcursor')).json().error.code).toBe('bad_request');
  });

  it('pages templates (without HTML) and lists (with their counts), filtered by name', async () => {
    for (const name of ['Pedido confirmado', 'Pedido enviado', 'Boas-vindas']) {
      await post('/api/v1/templates', { name, subject: 'Oi', html: '<p>Oi</p>' });
      await post('/api/v1/lists', { name: `Lista ${name}` });
    }
    await post('/api/v1/templates', { name: 'Pedido de outra conta', html: '<p>x</p>' }, other);
    const templates = await walk('/api/v1/templates', 2);
    expect(templates.map((x) => x.name)).toEqual(['Boas-vindas', 'Pedido enviado', 'Pedido confirmado']);
    for (const item of templates) expect(item).not.toHaveProperty('html');
    expect((await walk('/api/v1/templates?search=PEDIDO', 1)).map((x) => x.name)).toEqual([
      'Pedido enviado',
      'Pedido confirmado',
    ]);
    const lists = await walk('/api/v1/lists', 2);
    expect(lists.map((x) => x.name)).toEqual(['Lista Boas-vindas', 'Lista Pedido enviado', 'Lista Pedido confirmado']);
    expect(lists[0]).toMatchObject({ contactCount: 0, subscribedCount: 0 });
    // A literal % matches itself, not everything.
    expect(await walk('/api/v1/lists?search=%25', 5)).toEqual([]);
  });
});
