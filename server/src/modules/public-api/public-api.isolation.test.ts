import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { creditAccount } from '../sending/testing/send-fixtures';

type Json = Record<string, unknown>;
const json = { 'content-type': 'application/json' };

/** Every operation of the document, called by account B on account A's resources: none may read or change them. */
describe.each(DATABASE_KINDS)('a key never reaches another account, over every route, on %s', (kind) => {
  let t: TestApp;
  let a: SignedInUser;
  let keyA: string;
  let keyB: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind, { API_RATE_LIMIT: '100000' });
    a = await signUp(t, { verified: true });
    const b = await signUp(t, { verified: true });
    keyA = await createApiKeyFor(t, a);
    keyB = await createApiKeyFor(t, b);
    const call = async (url: string, payload: object) =>
      (await t.app.inject({ method: 'POST', url, headers: bearer(keyA, json), payload })).json().id as string;
    ids.list = await call('/api/v1/lists', { name: 'Lista de A' });
    ids.contact = await call('/api/v1/contacts', {
      email: 'cliente-de-a@example.com',
      name: 'De A',
      listIds: [ids.list],
      legalBasis: 'consent',
    });
    ids.template = await call('/api/v1/templates', { name: 'Modelo de A', subject: 'A', html: '<p>A</p>' });
    ids.campaign = await call('/api/v1/campaigns', { uuid: crypto.randomUUID(), name: 'Campanha de A', subject: 'A' });
    // A message of A (GET /messages/{id} with B's key: 404).
    await creditAccount(t.database.db, a.accountId, 1_000);
    await trustSenderAddress(t.database.db, a.accountId, 'pedidos@minhaloja.com.br');
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/messages',
      headers: bearer(keyA, json),
      payload: { to: { email: 'x@example.com' }, from: { email: 'pedidos@minhaloja.com.br' }, subject: 'A', text: 'A' },
    });
    ids.message = sent.json().messages[0].id;
    // A file of A (GET/DELETE /files/{id} with B's key: 404).
    ids.file = await call('/api/v1/files', {
      filename: 'nota-de-a.txt',
      content: Buffer.from('Nota fiscal de A').toString('base64'),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  async function snapshot(): Promise<string> {
    const get = async (url: string) => (await t.app.inject({ url, headers: bearer(keyA) })).body;
    return JSON.stringify([
      await get(`/api/v1/contacts/${ids.contact}`),
      await get(`/api/v1/lists/${ids.list}`),
      await get(`/api/v1/lists/${ids.list}/members`),
      await get(`/api/v1/templates/${ids.template}`),
      (await get(`/api/v1/campaigns/${ids.campaign}`)).replace(/"updatedAt":"[^"]+"/g, ''),
      await get(`/api/v1/messages/${ids.message}`),
      await get(`/api/v1/files/${ids.file}`),
    ]);
  }

  it('answers 404 (or B’s own data) on every operation with A’s ids, and A’s data stays the same', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as Json;
    const before = await snapshot();
    const byTag: Record<string, string | undefined> = {
      Contatos: ids.contact,
      Listas: ids.list,
      Modelos: ids.template,
      Campanhas: ids.campaign,
      Mensagens: ids.message,
      Arquivos: ids.file,
    };
    let withIds = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(item)) {
        const tag = (op.tags as string[])[0] as string;
        const url = `/api/v1${path
          .replace('{id}', byTag[tag] ?? '')
          .replace('{listId}', ids.list as string)
          .replace('{contactId}', ids.contact as string)}`;
        const content = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
        let body = content?.['application/json']?.example as unknown;
        if (body !== undefined) {
          body = JSON.parse(
            JSON.stringify(body)
              .replaceAll(
                '00000000-0000-4000-8000-000000000000',
                path.startsWith('/lists') ? (ids.contact as string) : (ids.list as string),
              )
              .replace(/"email":"[^"]+"/, '"email":"cliente-de-a@example.com"'),
          );
        }
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: bearer(keyB, body === undefined ? {} : json),
          ...(body === undefined ? {} : { payload: body as object }),
        });
        const label = `${method.toUpperCase()} ${path} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (path.includes('{')) {
          withIds += 1;
          expect(res.statusCode, label).toBe(404);
        } else {
          // Collection routes answer B's own data: none of A's names or addresses may appear.
          expect(res.statusCode, label).toBeLessThan(500);
          for (const secret of [
            'cliente-de-a@example.com',
            'Lista de A',
            'Modelo de A',
            'Campanha de A',
            ...Object.values(ids),
          ]) {
            if (res.statusCode < 300 && method === 'get') expect(res.body, label).not.toContain(secret);
          }
        }
      }
    }
    expect(withIds).toBeGreaterThanOrEqual(20);
    expect(await snapshot()).toBe(before);
  });

  it('does not let B’s upsert or list membership touch A’s contact with the same e-mail', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/contacts',
      headers: bearer(keyB, json),
      payload: { email: 'cliente-de-a@example.com', name: 'Tomado por B', legalBasis: 'consent' },
    });
    // B's own contact with this address (created by the sweep above, or now), never A's.
    expect([200, 201]).toContain(res.statusCode);
    expect(res.json().id).not.toBe(ids.contact);
    const mine = (await t.app.inject({ url: `/api/v1/contacts/${ids.contact}`, headers: bearer(keyA) })).json();
    expect(mine.name).toBe('De A');
    const add = await t.app.inject({
      method: 'POST',
      url: `/api/v1/lists/${ids.list}/members`,
      headers: bearer(keyB, json),
      payload: { contactIds: [res.json().id] },
    });
    expect(add.statusCode).toBe(404);
  });
});
