import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '@carteiro/shared';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { seededRandom } from '../../../test/support/seeded-random';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { creditAccount } from '../sending/testing/send-fixtures';
import { EXAMPLE_ID } from './openapi';

type Json = Record<string, unknown>;
interface DocOperation {
  method: string;
  path: string;
  op: Json;
}

const json = { 'content-type': 'application/json' };
/** Words of zod's, Fastify's or Node's English messages: a client must never read them. */
/** English words in a message — except a quoted `identifier` (the API's own values, such as the status `failed`). */
const ENGLISH =
  /(?<!`)\b(invalid input|expected|received|required|must|should|cannot|error|the|body|unexpected|unknown|failed)\b(?!`)/i;

function operationsOf(doc: Json): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) out.push({ method: method.toUpperCase(), path, op });
  }
  return out;
}

describe.each(DATABASE_KINDS)('public API v1 document, contract and fuzz on %s', (kind) => {
  let t: TestApp;
  let owner: SignedInUser;
  let secret: string;
  let doc: Json;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind, { API_RATE_LIMIT: '1000000' });
    owner = await signUp(t, { verified: true });
    // Credit for the transactional sends (POST /messages, /messages/batch answer 402 without it).
    await creditAccount(t.database.db, owner.accountId, 1_000_000);
    // Issue 14: the send examples come from this verified sender.
    await trustSenderAddress(t.database.db, owner.accountId, 'pedidos@minhaloja.com.br');
    secret = await createApiKeyFor(t, owner);
    doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    const call = (method: 'POST', url: string, payload: object) =>
      t.app.inject({ method, url, headers: bearer(secret, json), payload });
    ids.contact = (
      await call('POST', '/api/v1/contacts', { email: 'base@example.com', name: 'Base', legalBasis: 'consent' })
    ).json().id;
    ids.list = (await call('POST', '/api/v1/lists', { name: 'Base' })).json().id;
    ids.template = (
      await call('POST', '/api/v1/templates', { name: 'Base', subject: 'Oi', html: '<p>Oi {{ contato.nome }}</p>' })
    ).json().id;
    ids.campaign = (
      await call('POST', '/api/v1/campaigns', { uuid: crypto.randomUUID(), name: 'Base', subject: 'Oi' })
    ).json().id;
    // An uploaded file to read (GET /files/{id}) and attach by fileId.
    ids.file = (
      await call('POST', '/api/v1/files', { filename: 'base.pdf', content: Buffer.from('%PDF-1.4').toString('base64') })
    ).json().id;
    // A message to look up (GET /messages/{id}), scheduled so that it can be cancelled (POST /messages/{id}/cancel).
    ids.message = (
      await call('POST', '/api/v1/messages', {
        to: { email: 'base@example.com' },
        from: { email: 'pedidos@minhaloja.com.br' },
        subject: 'Oi',
        text: 'Oi',
        sendAt: new Date(Date.now() + 3_600_000).toISOString(),
      })
    ).json().messages[0].id;
  });
  afterAll(async () => {
    await t.close();
  });

  function resourceId(tag: string): string {
    const byTag: Record<string, string | undefined> = {
      Contatos: ids.contact,
      Listas: ids.list,
      Modelos: ids.template,
      Campanhas: ids.campaign,
      Mensagens: ids.message,
      Arquivos: ids.file,
    };
    return byTag[tag] ?? EXAMPLE_ID;
  }

  function urlOf(d: DocOperation): string {
    const tag = ((d.op.tags as string[]) ?? [])[0] ?? '';
    return `/api/v1${d.path
      .replace('{id}', resourceId(tag))
      .replace('{listId}', ids.list as string)
      .replace('{contactId}', ids.contact as string)}`;
  }

  function exampleBody(d: DocOperation): unknown {
    const content = (d.op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
    const example = content?.['application/json']?.example;
    if (example === undefined) return undefined;
    return JSON.parse(
      JSON.stringify(example).replaceAll(
        EXAMPLE_ID,
        d.path.startsWith('/lists') ? (ids.contact as string) : (ids.list as string),
      ),
    );
  }

  it('is OpenAPI 3.1 with every $ref resolvable, security, code samples in four languages and pt-BR summaries', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.components as Json).securitySchemes).toMatchObject({ bearerAuth: { type: 'http', scheme: 'bearer' } });
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const pointer = ref.slice(8, -1);
      expect(pointer.startsWith('#/')).toBe(true);
      let node: unknown = doc;
      for (const part of pointer.slice(2).split('/')) node = (node as Json | undefined)?.[part.replaceAll('~1', '/')];
      expect(node, pointer).toBeDefined();
    }
    for (const d of operationsOf(doc)) {
      const samples = d.op['x-codeSamples'] as Array<{ label: string; source: string }>;
      expect(samples.map((s) => s.label)).toEqual(['curl', 'Node (fetch)', 'Python (requests)', 'PHP']);
      for (const s of samples) expect(s.source).toContain('Authorization');
      expect(String(d.op.summary)).not.toMatch(ENGLISH);
    }
  });

  it('documents exactly the routes registered under /api/v1', () => {
    const documented = operationsOf(doc)
      .map((d) => `${d.method} /api/v1${d.path.replace(/\{(\w+)\}/g, ':$1')}`)
      .sort();
    const registered = t.app.publicApiRoutes.filter((r) => r !== 'GET /api/v1/openapi.json').sort();
    expect(registered).toEqual(documented);
    expect(documented.length).toBeGreaterThanOrEqual(35);
  });

  it('documents the payload of every outbound webhook event (issue 13), from the schemas the emitters use', () => {
    const webhooks = doc.webhooks as Record<string, { post: { requestBody: { content: Record<string, unknown> } } }>;
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      expect(webhooks[type]?.post.requestBody.content['application/json']).toBeDefined();
    }
  });

  /** The request body schema of an operation, with `$ref`s resolved. */
  function resolve(schema: Json | undefined): Json | undefined {
    let node = schema;
    while (node?.$ref) {
      let target: unknown = doc;
      for (const part of String(node.$ref).slice(2).split('/')) target = (target as Json)[part.replaceAll('~1', '/')];
      node = target as Json;
    }
    return node;
  }

  /**
   * Every object of `example` that the document says is closed (`additionalProperties: false`), as its path: where
   * an unknown field must be refused by name. Records (`data`, `fields`, `metadata`) are open maps and left out.
   */
  function closedObjects(schema: Json | undefined, example: unknown, path: string[]): string[][] {
    const node = resolve(schema);
    if (!node || example === null || typeof example !== 'object') return [];
    const branches = [...((node.anyOf as Json[]) ?? []), ...((node.oneOf as Json[]) ?? [])];
    if (branches.length > 0) {
      const object = branches.map(resolve).find((b) => b?.type === 'object' || b?.properties || b?.items);
      return closedObjects(object, example, path);
    }
    if (Array.isArray(example)) {
      return example.flatMap((item, i) => closedObjects(node.items as Json, item, [...path, String(i)]));
    }
    const properties = (node.properties ?? {}) as Record<string, Json>;
    const own = node.additionalProperties === false ? [path] : [];
    return [
      ...own,
      ...Object.entries(example as Json).flatMap(([key, value]) =>
        properties[key] ? closedObjects(properties[key], value, [...path, key]) : [],
      ),
    ];
  }

  it('refuses an unknown field in every closed object of every documented body, naming its path', async () => {
    let checked = 0;
    for (const d of operationsOf(doc)) {
      const example = exampleBody(d);
      const content = (d.op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      const schema = content?.['application/json']?.schema as Json | undefined;
      if (example === undefined || !schema) continue;
      for (const spot of closedObjects(schema, example, [])) {
        const body = structuredClone(example) as Json;
        let target: Json = body;
        for (const key of spot) target = target[key] as Json;
        target.campoInexistente = 'x';
        const res = await t.app.inject({
          method: d.method as 'POST',
          url: urlOf(d),
          headers: bearer(secret, json),
          payload: body,
        });
        const where = [...spot, 'campoInexistente'].join('.');
        const label = `${d.method} ${d.path} with ${where} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, label).toBe(400);
        expect(res.json().error.code, label).toBe('unknown_fields');
        expect(res.json().error.details.unknown, label).toContain(where);
        checked++;
      }
    }
    // Bodies, their nested objects (to, from, cc, attachments, steps…): far more than one per operation.
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it('never answers 5xx to broken attachments, and never accepts one without storing every file', async () => {
    const random = seededRandom(20261126).next;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const bytes = () =>
      Buffer.from(Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256)));
    const filenames = [
      'nota.pdf',
      'boleto.PDF',
      'virus.exe',
      'script.js',
      'a/b.pdf',
      '',
      '.',
      'x'.repeat(200),
      'nf\u0007.xml',
      'sem-extensao',
      'ação.xml',
    ];
    const contents = () =>
      pick([
        () => bytes().toString('base64'),
        () => 'não é base64!',
        () => `${bytes().toString('base64')}===`,
        () => '',
        () => 12,
        () => null,
        () => bytes().toString('base64url'),
      ])();
    const file = (): unknown =>
      pick([
        () => ({ filename: pick(filenames), content: contents() }),
        () => ({
          filename: pick(filenames),
          content: contents(),
          contentType: pick(['application/pdf', 'pdf', 'text/plain; charset=utf-8', '', 'a/b/c']),
        }),
        () => ({
          filename: pick(filenames),
          content: contents(),
          contentId: pick(['logo', '', '<logo>', 'x'.repeat(300)]),
        }),
        () => ({ content: contents() }),
        () => pick(['nota.pdf', 1, null, []]),
        // By an uploaded file: this account's, an unknown one, not an id, or with bytes too.
        () => ({
          fileId: pick([ids.file, crypto.randomUUID(), 'x', 12]),
          ...(random() < 0.3 ? { filename: pick(filenames) } : {}),
        }),
        () => ({ fileId: ids.file, content: contents(), filename: pick(filenames) }),
      ])();
    /** A file the API must take: random bytes under an allowed name. */
    const good = () => ({
      filename: pick(['nota.pdf', 'NF-e 77.xml', 'boleto.PDF', 'ação.txt', 'sem-extensao']),
      content: bytes().toString('base64'),
      ...(random() < 0.5 ? { contentType: 'application/pdf' } : {}),
    });
    let accepted = 0;
    for (let i = 0; i < 120; i++) {
      const attachments =
        random() < 0.1
          ? pick(['x', {}, null])
          : Array.from({ length: 1 + Math.floor(random() * 3) }, () => (random() < 0.6 ? good() : file()));
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers: bearer(secret, json),
        payload: {
          to: { email: 'anexos@example.com' },
          from: { email: 'pedidos@minhaloja.com.br' },
          subject: 'Anexos',
          text: 'Segue.',
          attachments,
        },
      });
      const label = `${JSON.stringify(attachments).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
      expect(res.statusCode, label).toBeLessThan(500);
      // 404: a fileId that is not an upload of this account.
      expect([201, 400, 404], label).toContain(res.statusCode);
      if (res.statusCode === 400 || res.statusCode === 404) {
        expect(res.json().error.message, label).not.toMatch(ENGLISH);
        continue;
      }
      accepted++;
      // Accepted: every file given is stored with the message (the lookup counts them).
      const lookup = await t.app.inject({
        url: `/api/v1/messages/${res.json().messages[0].id}`,
        headers: bearer(secret),
      });
      expect(lookup.json().attachments, label).toBe((attachments as unknown[]).length);
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('answers every operation, called with its example, as its document says', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
    const operations = operationsOf(doc);
    // Deletions last (sub-resources first), so every other operation still finds its resource.
    const deletions = operations.filter((d) => d.method === 'DELETE').sort((a, b) => b.path.length - a.path.length);
    const ordered = [...operations.filter((d) => d.method !== 'DELETE'), ...deletions];
    const successes: string[] = [];
    for (const d of ordered) {
      const body = exampleBody(d);
      const res = await t.app.inject({
        method: d.method as 'GET',
        url: urlOf(d),
        headers: bearer(secret, body === undefined ? {} : json),
        ...(body === undefined ? {} : { payload: body as object }),
      });
      const name = `${d.method} ${d.path} → ${res.statusCode} ${res.body.slice(0, 300)}`;
      expect(res.statusCode, name).toBeLessThan(500);
      const responses = d.op.responses as Record<string, Json>;
      expect(Object.keys(responses), name).toContain(
        String(res.statusCode === 201 && d.method === 'PUT' ? 200 : res.statusCode),
      );
      if (res.statusCode < 300) successes.push(d.op.operationId as string);
      if (res.statusCode === 204) {
        expect(res.body).toBe('');
        continue;
      }
      const status = String(res.statusCode === 201 && d.method === 'PUT' ? 200 : res.statusCode);
      const response = responses[status] as Json;
      const pointer = response.$ref
        ? `openapi.json#/components/schemas/Error`
        : `openapi.json#/paths/${d.path.replaceAll('/', '~1')}/${d.method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer);
      expect(validate, pointer).toBeDefined();
      const ok = validate?.(res.json());
      expect(ok, `${name}\n${JSON.stringify(validate?.errors)}`).toBe(true);
      if (res.statusCode >= 400) expect(res.json().error.message, name).not.toMatch(ENGLISH);
    }
    // The state-dependent campaign controls (send without an audience, pause a draft, delete the campaign the
    // cancel kept for the record…) may answer 4xx; every other operation must succeed with its example.
    const mayRefuse = new Set([
      'scheduleCampaign',
      'sendCampaign',
      'pauseCampaign',
      'resumeCampaign',
      'deleteCampaign',
    ]);
    for (const d of operations) {
      const id = d.op.operationId as string;
      if (!mayRefuse.has(id)) expect(successes, id).toContain(id);
    }
  });

  it('never answers 5xx or English to hundreds of random bodies and queries per operation', async () => {
    const random = seededRandom(20261124).next;
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
    const strings = [
      '',
      ' ',
      'a',
      'ã'.repeat(300),
      'x'.repeat(5000),
      '<script>',
      "' or 1=1 --",
      '\u0000',
      '😀',
      'null',
      '-1',
      '1e309',
      '2030-13-45',
      'not-an-email@',
      EXAMPLE_ID,
    ];
    const scalar = (): unknown =>
      pick<() => unknown>([
        () => pick(strings),
        () => Math.floor(random() * 2 ** 53) * (random() < 0.5 ? -1 : 1),
        () => random() * 1e6,
        () => random() < 0.5,
        () => null,
        () => crypto.randomUUID(),
      ])();
    const value = (depth: number): unknown => {
      if (depth > 2 || random() < 0.5) return scalar();
      if (random() < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [
          pick(['email', 'name', 'x', 'fields', 'listIds']),
          value(depth + 1),
        ]),
      );
    };
    /** A mutation of the example (each field replaced, dropped or kept), or an arbitrary JSON value. */
    const mutate = (example: unknown): unknown => {
      if (random() < 0.2 || !example || typeof example !== 'object' || Array.isArray(example)) return value(0);
      const out: Json = {};
      for (const [k, v] of Object.entries(example as Json)) {
        const r = random();
        if (r < 0.3) out[k] = value(1);
        else if (r < 0.45) continue;
        else out[k] = v;
      }
      if (random() < 0.2) out[pick(['extra', '__proto__', 'constructor'])] = value(1);
      return out;
    };
    const RUNS = 200;
    const counts: Record<string, number> = {};
    for (const d of operationsOf(doc)) {
      if (d.method === 'DELETE') continue;
      const params = ((d.op.parameters as Json[] | undefined) ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => p.name as string);
      const hasBody = Boolean(d.op.requestBody);
      if (!hasBody && params.length === 0 && !d.path.includes('{')) continue;
      const example = exampleBody(d);
      for (let i = 0; i < RUNS; i++) {
        const query = new URLSearchParams();
        for (const name of params) if (random() < 0.5) query.set(name, String(scalar()));
        let url = urlOf(d);
        if (d.path.includes('{') && random() < 0.2)
          url = url.replace(/[0-9a-f-]{36}/, String(pick(strings)).slice(0, 50) || 'x');
        const qs = query.toString();
        const raw = hasBody && random() < 0.05;
        const res = await t.app.inject({
          method: d.method as 'POST',
          url: qs ? `${url}?${qs}` : url,
          headers: bearer(secret, hasBody ? json : {}),
          ...(hasBody
            ? { payload: raw ? pick(['{', '[1,', '"', 'nulo', '{"a":}']) : JSON.stringify(mutate(example)) }
            : {}),
        });
        const label = `${d.method} ${url}?${qs} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, label).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const message = res.json().error.message as string;
          expect(message, label).not.toMatch(ENGLISH);
        }
        counts[d.op.operationId as string] = (counts[d.op.operationId as string] ?? 0) + 1;
      }
    }
    expect(Object.keys(counts).length).toBeGreaterThanOrEqual(25);
    for (const n of Object.values(counts)) expect(n).toBe(RUNS);
  }, 600_000);
});
