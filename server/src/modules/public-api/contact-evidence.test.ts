import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';

const json = { 'content-type': 'application/json' };
const MISSING = 'legalBasis: Informe a base legal (consentimento ou legítimo interesse).';

/** ADR 0037: a contact an integration creates carries the LGPD evidence the dashboard's form asks for. */
describe.each(DATABASE_KINDS)('LGPD evidence of API-created contacts on %s', (kind) => {
  let t: TestApp;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    secret = await createApiKeyFor(t, await signUp(t, { verified: true }));
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(secret, json), ...(payload ? { payload } : {}) });
  const count = async (email: string) =>
    (await call('GET', `/contacts?search=${encodeURIComponent(email)}`)).json().items.length;

  it('refuses a new contact without a legal basis (POST and PUT) with a 400 naming the field; nothing is created', async () => {
    for (const method of ['POST', 'PUT'] as const) {
      const res = await call(method, '/contacts', { email: 'sem-base@example.com', name: 'Sem base' });
      expect(res.statusCode, method).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'validation_failed',
        message: MISSING,
        details: { fields: [{ path: 'legalBasis', message: MISSING.slice('legalBasis: '.length) }] },
      });
    }
    const wrong = await call('POST', '/contacts', { email: 'sem-base@example.com', legalBasis: 'vontade' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(MISSING);
    expect(await count('sem-base@')).toBe(0);
  });

  it('records the basis, the source ("API" unless given), the time and the IP, as the dashboard does', async () => {
    const res = await call('POST', '/contacts', { email: 'com-base@example.com', legalBasis: 'legitimate_interest' });
    expect(res.statusCode, res.body).toBe(201);
    const { consent } = res.json();
    expect(consent).toMatchObject({ legalBasis: 'legitimate_interest', source: 'API', ip: '127.0.0.1' });
    expect(Date.now() - Date.parse(consent.at)).toBeLessThan(60_000);
    const put = await call('PUT', '/contacts', {
      email: 'checkout@example.com',
      legalBasis: 'consent',
      consentSource: 'checkout da loja virtual',
    });
    expect(put.statusCode, put.body).toBe(201);
    expect(put.json().consent).toMatchObject({ legalBasis: 'consent', source: 'checkout da loja virtual' });
  });

  it('updates an existing contact through PUT without a basis, keeping the evidence it has', async () => {
    await call('POST', '/contacts', { email: 'existente@example.com', legalBasis: 'consent', consentSource: 'feira' });
    const res = await call('PUT', '/contacts', { email: 'existente@example.com', name: 'Já existia' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Já existia', consent: { legalBasis: 'consent', source: 'feira' } });
  });

  it('says so in the OpenAPI document: legalBasis is required to create', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    const create = doc.paths['/contacts'].post;
    const schema = create.requestBody.content['application/json'].schema;
    const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
    expect(resolved.required).toContain('legalBasis');
    expect(create.description).toContain('base legal da LGPD é obrigatória');
  });
});
