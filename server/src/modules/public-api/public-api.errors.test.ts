import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { ERROR_HTTP_STATUS, PUBLIC_API_ERROR_CODES, type PublicApiErrorCode } from '@carteiro/shared';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { creditAccount } from '../sending/testing/send-fixtures';
import { API_ERRORS_DOC_PATH, renderApiErrorsDoc } from './error-catalogue';
import { requestFingerprint } from './idempotency';
import { EXAMPLE_ID } from './openapi';

type Json = Record<string, unknown>;
interface DocOperation {
  method: string;
  path: string;
  op: Json;
  id: string;
}

const json = { 'content-type': 'application/json' };
/** English words in a message — except a quoted `identifier` (the API's own values, such as the status `failed`). */
const ENGLISH =
  /(?<!`)\b(invalid input|expected|received|required|must|should|cannot|error|the|body|unexpected|unknown|failed)\b(?!`)/i;
const SENDER = 'pedidos@minhaloja.com.br';
const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function operationsOf(doc: Json): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item))
      out.push({ method: method.toUpperCase(), path, op, id: op.operationId as string });
  }
  return out;
}

/**
 * The error catalogue as a client meets it, generated from the OpenAPI document: every operation answers every
 * error status it documents (and only codes it documents, each under its one status), every code of the catalogue
 * is reached through the real API, unknown fields are named wherever they hide, and the table in docs/ is current.
 */
describe.each(DATABASE_KINDS)('public API v1 error catalogue on %s', (kind) => {
  let t: TestApp;
  let doc: Json;
  let ajv: Ajv2020;
  let operations: DocOperation[];
  let owner: SignedInUser;
  let full: string;
  let sendOnly: string;
  const ids: Record<string, string> = {};
  /** `operationId status` of every error answer seen, and every code seen. */
  const reached = new Set<string>();
  const codesSeen = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp(kind, {
      API_RATE_LIMIT: '100000',
      API_IDEMPOTENCY_WAIT_SECONDS: '0.2',
      BODY_LIMIT_BYTES: '200000',
    });
    owner = await signUp(t, { verified: true });
    await creditAccount(t.database.db, owner.accountId, 1_000_000);
    await trustSenderAddress(t.database.db, owner.accountId, SENDER);
    full = await createApiKeyFor(t, owner);
    sendOnly = await createApiKeyFor(t, owner, 'send_only');
    doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    operations = operationsOf(doc);
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
    const post = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(full, json), payload });
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    ids.contact = (
      await post('/api/v1/contacts', { email: 'base@example.com', name: 'Base', legalBasis: 'consent' })
    ).id;
    ids.list = (await post('/api/v1/lists', { name: 'Base' })).id;
    ids.template = (await post('/api/v1/templates', { name: 'Base', subject: 'Oi', html: '<p>Oi</p>' })).id;
    const campaign = await post('/api/v1/campaigns', { uuid: randomUUID(), name: 'Base', subject: 'Oi' });
    ids.campaign = campaign.id;
    ids.campaignUuid = campaign.uuid;
    // A message to look up (GET /messages/{id}).
    const sent = await post('/api/v1/messages', {
      to: { email: 'base@example.com' },
      from: { email: SENDER },
      subject: 'Oi',
      text: 'Oi',
    });
    ids.message = sent.messages[0].id;
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const op = (id: string) => operations.find((d) => d.id === id) as DocOperation;

  function urlOf(d: DocOperation): string {
    const byTag: Record<string, string | undefined> = {
      Contatos: ids.contact,
      Listas: ids.list,
      Modelos: ids.template,
      Campanhas: ids.campaign,
      Mensagens: ids.message,
    };
    const tag = ((d.op.tags as string[]) ?? [])[0] ?? '';
    return `/api/v1${d.path
      .replace('{id}', byTag[tag] ?? EXAMPLE_ID)
      .replace('{listId}', ids.list as string)
      .replace('{contactId}', ids.contact as string)}`;
  }

  function exampleOf(d: DocOperation): unknown {
    const example = ((d.op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.[
      'application/json'
    ]?.example;
    if (example === undefined) return undefined;
    const id = d.path.startsWith('/lists') ? ids.contact : ids.list;
    return JSON.parse(JSON.stringify(example).replaceAll(EXAMPLE_ID, id as string));
  }

  /** The JSON schema node at a `$ref` (or the node itself). */
  function resolve(node: Json): Json {
    let current = node;
    while (typeof current.$ref === 'string') {
      let target: unknown = doc;
      for (const part of current.$ref.slice(2).split('/')) target = (target as Json)[part.replaceAll('~1', '/')];
      current = target as Json;
    }
    return current;
  }

  /** Every plain object of `value` whose schema is closed (`additionalProperties: false`), by its zod-style path. */
  function closedObjects(value: unknown, schema: Json, path: string[] = []): string[][] {
    const node = resolve(schema);
    if (Array.isArray(value)) {
      const items = node.items as Json | undefined;
      return items ? value.flatMap((item, i) => closedObjects(item, items, [...path, String(i)])) : [];
    }
    if (!value || typeof value !== 'object') return [];
    const out: string[][] = node.additionalProperties === false ? [path] : [];
    const props = (node.properties ?? {}) as Record<string, Json>;
    for (const [key, inner] of Object.entries(value as Json)) {
      if (props[key]) out.push(...closedObjects(inner, props[key], [...path, key]));
    }
    return out;
  }

  /** Asserts the answer is `code` under its one status, documented for this operation, in pt-BR; records it. */
  function expectError(res: LightMyRequestResponse, d: DocOperation | null, code: PublicApiErrorCode, label = '') {
    const name = `${d?.id ?? 'sem operação'} ${label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
    expect(res.statusCode, name).toBe(ERROR_HTTP_STATUS[code]);
    const body = res.json();
    expect(body.error.code, name).toBe(code);
    expect(body.error.message, name).not.toMatch(ENGLISH);
    const pointer = d
      ? `openapi.json#/paths/${d.path.replaceAll('/', '~1')}/${d.method.toLowerCase()}/responses/${res.statusCode}/content/application~1json/schema`
      : 'openapi.json#/components/schemas/Error';
    const validate = ajv.getSchema(pointer);
    expect(validate, `${name}: status ${res.statusCode} not documented`).toBeDefined();
    expect(validate?.(body), `${name}\n${JSON.stringify(validate?.errors)}`).toBe(true);
    if (d) reached.add(`${d.id} ${res.statusCode}`);
    codesSeen.add(code);
  }

  const call = (
    method: string,
    url: string,
    opts: { key?: string | null; payload?: string | object; headers?: Record<string, string> } = {},
  ) =>
    t.app.inject({
      method: method as 'POST',
      url,
      headers: {
        ...(opts.key === null ? {} : { authorization: `Bearer ${opts.key ?? full}` }),
        ...(opts.payload === undefined ? {} : json),
        ...opts.headers,
      },
      ...(opts.payload === undefined ? {} : { payload: opts.payload }),
    });

  it('documents one status per code, the whole catalogue as an enum, closed input objects, and the current table', async () => {
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    const errorCode = ((((schemas.Error as Json).properties as Json).error as Json).properties as Json).code as Json;
    expect(errorCode.enum).toEqual([...PUBLIC_API_ERROR_CODES]);
    for (const d of operations) {
      for (const [status, response] of Object.entries(d.op.responses as Record<string, Json>)) {
        if (Number(status) < 400) continue;
        const content = (response.content as Record<string, Json>)['application/json'] as Json;
        const codes = (((((content.schema as Json).allOf as Json[])[1] as Json).properties as Json).error as Json)
          .properties as Json;
        for (const code of (codes.code as Json).enum as PublicApiErrorCode[]) {
          expect(ERROR_HTTP_STATUS[code], `${d.id} ${status} ${code}`).toBe(Number(status));
        }
      }
      // Every object a client sends is closed, at any depth; open maps (data, fields) are records, not objects.
      const walk = (node: Json, where: string, seen: Set<Json>): void => {
        const resolved = resolve(node);
        if (seen.has(resolved)) return;
        seen.add(resolved);
        if (resolved.properties) expect(resolved.additionalProperties, `${d.id} ${where}`).toBe(false);
        for (const [key, inner] of Object.entries((resolved.properties ?? {}) as Record<string, Json>))
          walk(inner, `${where}.${key}`, seen);
        for (const key of ['items', 'anyOf', 'oneOf', 'allOf'] as const) {
          const inner = resolved[key];
          if (Array.isArray(inner)) {
            for (const [i, n] of inner.entries()) walk(n as Json, `${where}.${key}${i}`, seen);
          } else if (inner && typeof inner === 'object') walk(inner as Json, `${where}.${key}`, seen);
        }
      };
      const body = ((d.op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.[
        'application/json'
      ]?.schema as Json | undefined;
      if (body) walk(body, 'body', new Set());
    }
    const current = fs.readFileSync(API_ERRORS_DOC_PATH, 'utf8');
    expect(current, 'docs/api-errors.md is stale: run npm run docs:api-errors').toBe(renderApiErrorsDoc(current));
  });

  it('answers the errors every operation documents by its shape, generated from the document', async () => {
    const balance = async () => (await call('GET', '/api/v1/balance')).json().balanceMillis as number;
    const before = await balance();
    const contactsBefore = (await call('GET', '/api/v1/contacts?limit=200')).json().items.length;
    for (const d of operations) {
      const url = urlOf(d);
      const m = d.method;
      // Authentication: no key, a key that is not one; both name the scheme (RFC 6750).
      let res = await call(m, url, { key: null });
      expectError(res, d, 'invalid_api_key', 'sem chave');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="carteiro"');
      res = await call(m, url, { key: `ct_live_${'A'.repeat(43)}` });
      expectError(res, d, 'invalid_api_key', 'chave falsa');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="carteiro", error="invalid_token"');
      expectError(await call(m, `${url}?api_key=abc`), d, 'api_key_in_url');
      res = await call(m, `${url}?campoDesconhecido=1`);
      expectError(res, d, 'unknown_fields', 'query');
      expect(res.json().error.details.unknown).toEqual(['campoDesconhecido']);
      expect(res.json().error.message).toContain('campoDesconhecido');
      if (!d.op['x-carteiro-send-only']) expectError(await call(m, url, { key: sendOnly }), d, 'api_key_scope');
      if (d.path.includes('{')) {
        // A valid request, but for an id this account does not have.
        const example = exampleOf(d);
        // (message ids are numbers: one no account has)
        const elsewhere = url
          .replace(UUID_RE, () => randomUUID())
          .replace(/\/messages\/\d+/, '/messages/9000000000000');
        res = await call(m, elsewhere, example === undefined ? {} : { payload: example as object });
        expectError(res, d, 'not_found', 'id de outra conta');
      }
      if (m !== 'GET') {
        expectError(await call(m, url, { payload: '{"a":' }), d, 'invalid_json');
        expectError(
          await call(m, url, { payload: 'oi', headers: { 'content-type': 'text/plain' } }),
          d,
          'unsupported_media_type',
        );
        expectError(
          // Past the operation's own limit when it has one (messages with attachments), else BODY_LIMIT_BYTES.
          await call(m, url, {
            payload: JSON.stringify({ x: 'a'.repeat(Number(d.op['x-carteiro-max-body-bytes'] ?? 200_000) + 50_000) }),
          }),
          d,
          'payload_too_large',
        );
        expectError(await call(m, url, { payload: '[1]' }), d, 'validation_failed', 'corpo que não é objeto');
        const example = exampleOf(d);
        const schema = ((d.op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.[
          'application/json'
        ]?.schema as Json | undefined;
        // An unknown field in every closed object of the example (the body, `to`, `messages[0].from`…), by name.
        const targets = example !== undefined && schema ? closedObjects(example, schema) : [[]];
        expect(targets.length, d.id).toBeGreaterThan(0);
        for (const path of targets) {
          const payload = structuredClone(example ?? {}) as Json;
          let node: Json = payload;
          for (const part of path) node = node[part] as Json;
          node.campoDesconhecido = 1;
          res = await call(m, url, { payload });
          const where = [...path, 'campoDesconhecido'].join('.');
          expectError(res, d, 'unknown_fields', where);
          expect(res.json().error.details.unknown, d.id).toEqual([where]);
          expect(res.json().error.message).toContain(where);
        }
      }
      if (d.op.parameters && (d.op.parameters as Json[]).some((p) => p.in === 'query')) {
        const params = (d.op.parameters as Json[]).filter((p) => p.in === 'query').map((p) => p.name as string);
        let refused = false;
        for (const name of params) {
          for (const bad of ['nao-e-valido', '-1', 'x'.repeat(300), '2024-02-30']) {
            res = await call(m, `${url}?${name}=${encodeURIComponent(bad)}`);
            if (res.statusCode === 400 && res.json().error.code === 'validation_failed') {
              expectError(res, d, 'validation_failed', `${name}=${bad}`);
              refused = true;
              break;
            }
          }
          if (refused) break;
        }
        expect(refused, `${d.id}: no bad query value refused`).toBe(true);
      }
      if (m === 'POST') {
        const key = `chave-${randomUUID()}`;
        expectError(
          await call(m, url, { payload: '[1]', headers: { 'idempotency-key': 'com espaço' } }),
          d,
          'idempotency_key_invalid',
        );
        // A 400 of the request itself is kept for the key; another body with the same key is a reuse.
        expectError(
          await call(m, url, { payload: '[1]', headers: { 'idempotency-key': key } }),
          d,
          'validation_failed',
        );
        const replay = await call(m, url, { payload: '[1]', headers: { 'idempotency-key': key } });
        expect(replay.headers['idempotent-replayed'], d.id).toBe('true');
        expectError(
          await call(m, url, { payload: '[2]', headers: { 'idempotency-key': key } }),
          d,
          'idempotency_key_reused',
        );
        // A first request still running: the repeat waits API_IDEMPOTENCY_WAIT_SECONDS, then 409.
        const running = `em-andamento-${randomUUID()}`;
        await queryRows(
          t.database.db,
          sql`insert into api_idempotency_keys (account_id, idempotency_key, request_hash)
              values (${owner.accountId}, ${running}, ${requestFingerprint('POST', url, [3])})`,
        );
        expectError(
          await call(m, url, { payload: '[3]', headers: { 'idempotency-key': running } }),
          d,
          'idempotency_key_in_progress',
        );
      }
    }
    // Nothing above did anything: no charge, no contact.
    expect(await balance()).toBe(before);
    expect((await call('GET', '/api/v1/contacts?limit=200')).json().items.length).toBe(contactsBefore);
  }, 600_000);

  it('reaches each operation’s own error codes through the real conditions', async () => {
    const db = t.database.db;
    const send = (d: DocOperation, payload: object, key = full) => call(d.method, urlOf(d), { key, payload });
    const message = (extra: Json = {}) => ({
      to: { email: 'cliente@example.com' },
      from: { email: SENDER },
      subject: 'Pedido',
      html: '<p>Pedido</p>',
      ...extra,
    });
    const another = async (opts: { credit?: number; suspended?: boolean } = {}) => {
      const user = await signUp(t, { verified: true });
      if (opts.credit) await creditAccount(db, user.accountId, opts.credit);
      await trustSenderAddress(db, user.accountId, SENDER);
      if (opts.suspended)
        await queryRows(db, sql`update accounts set status = 'suspended' where id = ${user.accountId}`);
      return { user, key: await createApiKeyFor(t, user) };
    };
    const poor = await another();
    const suspended = await another({ credit: 10_000, suspended: true });

    // Messages: template of nobody, unverified sender, short balance, suspended account — single and batch.
    for (const id of ['sendMessage', 'sendMessageBatch']) {
      const d = op(id);
      const wrap = (m: Json) => (id === 'sendMessage' ? m : { messages: [m] });
      expectError(await send(d, wrap(message({ templateId: randomUUID() }))), d, 'not_found');
      expectError(
        await send(d, wrap(message({ from: { email: 'outro@naoverificado.com.br' } }))),
        d,
        'sender_not_verified',
      );
      const short = await send(d, wrap(message()), poor.key);
      expectError(short, d, 'insufficient_balance');
      expect(short.json().error.details.missingMillis).toBe(5);
      expectError(await send(d, wrap(message()), suspended.key), d, 'account_suspended');
    }
    expectError(
      await send(op('trackEvent'), { email: 'ninguem@example.com', name: 'pedido_pago' }),
      op('trackEvent'),
      'not_found',
    );
    // A message sent at once is not scheduled: nothing to cancel.
    expectError(
      await call('POST', urlOf(op('cancelMessage')), { key: full }),
      op('cancelMessage'),
      'message_not_scheduled',
    );

    // Files: an account whose uploads fill its storage quota (their recorded size stands for the bytes).
    const stored = await another({ credit: 10_000 });
    const upload = (n: number) =>
      send(
        op('uploadFile'),
        { filename: `nf-${n}.xml`, content: Buffer.from(`<nfe n="${n}"/>`).toString('base64') },
        stored.key,
      );
    expect((await upload(1)).statusCode).toBe(201);
    await queryRows(
      db,
      sql`update message_files set size = ${t.config.API_FILES_QUOTA_MB * 1024 * 1024}
           where account_id = ${stored.user.accountId}`,
    );
    expectError(await upload(2), op('uploadFile'), 'file_quota_exceeded');

    // Contacts: exists, suppressed, lists of nobody.
    expectError(
      await send(op('createContact'), { legalBasis: 'consent', email: 'base@example.com' }),
      op('createContact'),
      'contact_exists',
    );
    expect((await send(op('addSuppressions'), { emails: ['suprimido@example.com'] })).statusCode).toBe(200);
    expectError(
      await send(op('createContact'), { legalBasis: 'consent', email: 'suprimido@example.com' }),
      op('createContact'),
      'address_suppressed',
    );
    expectError(
      await send(op('upsertContact'), { legalBasis: 'consent', email: 'suprimido@example.com' }),
      op('upsertContact'),
      'address_suppressed',
    );
    expectError(
      await send(op('createContact'), { legalBasis: 'consent', email: 'nova@example.com', listIds: [randomUUID()] }),
      op('createContact'),
      'not_found',
    );
    expectError(
      await send(op('upsertContact'), { legalBasis: 'consent', email: 'nova@example.com', listIds: [randomUUID()] }),
      op('upsertContact'),
      'not_found',
    );
    const second = (await send(op('createContact'), { legalBasis: 'consent', email: 'segunda@example.com' })).json();
    expectError(
      await send(op('updateContact'), { email: 'segunda@example.com' }),
      op('updateContact'),
      'contact_exists',
    );
    expectError(
      await send(op('updateContact'), { email: 'suprimido@example.com' }),
      op('updateContact'),
      'address_suppressed',
    );
    // Suppressions: a manual entry leaves; the recipient's own unsubscribe does not.
    expectError(
      await send(op('removeSuppression'), { email: 'nunca-suprimido@example.com' }),
      op('removeSuppression'),
      'not_found',
    );
    const unsubscribed = await call('PATCH', `/api/v1/contacts/${second.id}`, { payload: { status: 'unsubscribed' } });
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(200);
    expectError(
      await send(op('removeSuppression'), { email: 'segunda@example.com' }),
      op('removeSuppression'),
      'suppression_not_manual',
    );
    // Back to subscribed only with the person's own new consent.
    expectError(
      await call('PATCH', `/api/v1/contacts/${second.id}`, { payload: { status: 'subscribed' } }),
      op('updateContact'),
      'consent_required',
    );
    expectError(
      await send(op('upsertContact'), { email: 'segunda@example.com', status: 'subscribed' }),
      op('upsertContact'),
      'consent_required',
    );
    // A double opt-in list: its confirmations are the account's messages — charged (402 on an empty balance) and
    // sent from its default sender (403 while there is none), nothing written either way.
    const empty = await another();
    const asEmpty = (d: DocOperation, url: string, payload: object) =>
      call(d.method, `/api/v1${url}`, { key: empty.key, payload });
    const emptyList = (await asEmpty(op('createList'), '/lists', { name: 'Dupla', optIn: 'double' })).json().id;
    const emptyContact = (
      await asEmpty(op('createContact'), '/contacts', { email: 'sem-saldo@example.com', legalBasis: 'consent' })
    ).json().id;
    const joins: Array<[string, string, object]> = [
      ['createContact', '/contacts', { email: 'nova-dupla@example.com', listIds: [emptyList], legalBasis: 'consent' }],
      ['upsertContact', '/contacts', { email: 'nova-dupla@example.com', listIds: [emptyList], legalBasis: 'consent' }],
      ['addContactToLists', `/contacts/${emptyContact}/lists`, { listIds: [emptyList] }],
      ['addListMembers', `/lists/${emptyList}/members`, { contactIds: [emptyContact] }],
    ];
    for (const [id, url, payload] of joins) {
      expectError(await asEmpty(op(id), url, payload), op(id), 'sender_not_verified', 'sem remetente padrão');
    }
    await queryRows(db, sql`update accounts set default_from_email = ${SENDER} where id = ${empty.user.accountId}`);
    for (const [id, url, payload] of joins) {
      expectError(await asEmpty(op(id), url, payload), op(id), 'insufficient_balance', 'sem saldo');
    }
    expectError(await call('GET', '/api/v1/contacts?cursor=lixo'), op('listContacts'), 'bad_request');
    expectError(
      await call('GET', `/api/v1/lists/${ids.list}/members?cursor=lixo`),
      op('listListMembers'),
      'bad_request',
    );

    // Campaigns: the draft without an audience is not ready; a ready one sends once and is then locked.
    expectError(
      await send(op('createCampaign'), { uuid: ids.campaignUuid as string, name: 'Outra' }),
      op('createCampaign'),
      'campaign_exists',
    );
    expectError(
      await send(op('createCampaign'), { name: 'Do modelo', templateId: randomUUID() }),
      op('createCampaign'),
      'not_found',
    );
    const base = ids.campaign as string;
    const notReady = await call('POST', `/api/v1/campaigns/${base}/send`);
    expectError(notReady, op('sendCampaign'), 'campaign_not_ready');
    expect(notReady.json().error.details.check).toBeTruthy();
    expectError(
      await call('POST', `/api/v1/campaigns/${base}/schedule`, { payload: { scheduledAt: '2030-01-15T09:00:00Z' } }),
      op('scheduleCampaign'),
      'campaign_not_ready',
    );
    expectError(await call('POST', `/api/v1/campaigns/${base}/pause`), op('pauseCampaign'), 'campaign_not_editable');
    expectError(await call('POST', `/api/v1/campaigns/${base}/resume`), op('resumeCampaign'), 'campaign_not_editable');

    const audience = (await send(op('createList'), { name: 'Clientes' })).json().id as string;
    const member = (
      await send(op('createContact'), { legalBasis: 'consent', email: 'membro@example.com', listIds: [audience] })
    ).json();
    expect(member.id).toBeTruthy();
    const ready = (fromEmail: string) => ({
      name: 'Pronta',
      subject: 'Novidades',
      fromEmail,
      includeListIds: [audience],
      template: '<p>Olá, {{ contato.nome }}!</p><p><a href="{{ link_descadastro }}">Descadastrar</a></p>',
    });
    const created = async (key: string, payload: object) => {
      const res = await call('POST', '/api/v1/campaigns', { key, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const unverified = await created(full, ready('outro@naoverificado.com.br'));
    expectError(
      await call('POST', `/api/v1/campaigns/${unverified}/schedule`, {
        payload: { scheduledAt: '2030-01-15T09:00:00-03:00' },
      }),
      op('scheduleCampaign'),
      'sender_not_verified',
    );
    expectError(await call('POST', `/api/v1/campaigns/${unverified}/send`), op('sendCampaign'), 'sender_not_verified');
    const poorAudience = (await call('POST', '/api/v1/lists', { key: poor.key, payload: { name: 'L' } })).json().id;
    await call('POST', '/api/v1/contacts', {
      key: poor.key,
      payload: { email: 'membro@example.com', listIds: [poorAudience], legalBasis: 'consent' },
    });
    const poorCampaign = await created(poor.key, { ...ready(SENDER), includeListIds: [poorAudience] });
    const broke = await call('POST', `/api/v1/campaigns/${poorCampaign}/send`, { key: poor.key });
    expectError(broke, op('sendCampaign'), 'insufficient_balance');
    expect(broke.json().error.details.missingMillis).toBe(5);
    const suspendedCampaign = await created(suspended.key, { name: 'S', subject: 'S' });
    expectError(
      await call('POST', `/api/v1/campaigns/${suspendedCampaign}/send`, { key: suspended.key }),
      op('sendCampaign'),
      'account_suspended',
    );

    const sending = await created(full, ready(SENDER));
    const started = await call('POST', `/api/v1/campaigns/${sending}/send`);
    expect(started.statusCode, started.body).toBe(200);
    expectError(
      await call('POST', `/api/v1/campaigns/${sending}/send`),
      op('sendCampaign'),
      'campaign_already_sending',
    );
    expectError(
      await call('PATCH', `/api/v1/campaigns/${sending}`, { payload: { subject: 'Tarde demais' } }),
      op('updateCampaign'),
      'campaign_not_editable',
    );
    expectError(await call('DELETE', `/api/v1/campaigns/${sending}`), op('deleteCampaign'), 'campaign_not_editable');
    expectError(
      await call('POST', `/api/v1/campaigns/${sending}/schedule`, { payload: { scheduledAt: '2030-01-15T09:00:00Z' } }),
      op('scheduleCampaign'),
      'campaign_not_editable',
    );
    expect((await call('POST', `/api/v1/campaigns/${sending}/cancel`)).statusCode).toBe(200);
    expectError(
      await call('POST', `/api/v1/campaigns/${sending}/cancel`),
      op('cancelCampaign'),
      'campaign_not_editable',
    );

    // A path called with a method it does not take: 405 naming the ones it does.
    const wrong = await call('DELETE', '/api/v1/balance');
    expectError(wrong, null, 'method_not_allowed');
    expect(wrong.headers.allow).toBe('GET, HEAD');
    expect((await call('PUT', '/api/v1/messages', { payload: {} })).headers.allow).toBe('POST, GET, HEAD');
    const nowhere = await call('GET', '/api/v1/nao-existe');
    expectError(nowhere, null, 'not_found');
  }, 300_000);

  it('answers 429 on every operation once the account’s window is spent, whichever key', async () => {
    const limited = await signUp(t, { verified: true });
    const key = await createApiKeyFor(t, limited);
    const windowSeconds = t.config.API_RATE_LIMIT_WINDOW_SECONDS;
    // This window and the next, so a window boundary during the loop changes nothing.
    for (const offset of [0, windowSeconds]) {
      await queryRows(
        t.database.db,
        sql`insert into api_rate_limits (account_id, window_start, count)
            values (${limited.accountId},
                    to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds} + ${offset}),
                    ${t.config.API_RATE_LIMIT})`,
      );
    }
    for (const d of operations) {
      const res = await call(d.method, urlOf(d), { key, ...(d.method === 'GET' ? {} : { payload: {} }) });
      expectError(res, d, 'too_many_requests');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['ratelimit-remaining']).toBe('0');
    }
  });

  it('masks a failure of ours as a pt-BR 500 on every operation', async () => {
    // The rate-limit table every request writes, gone: the database fails under every operation.
    await queryRows(t.database.db, sql`alter table api_rate_limits rename to api_rate_limits_away`);
    try {
      for (const d of operations) {
        const res = await call(d.method, urlOf(d), d.method === 'GET' ? {} : { payload: {} });
        expectError(res, d, 'internal_error');
        expect(res.body).not.toContain('api_rate_limits');
      }
    } finally {
      await queryRows(t.database.db, sql`alter table api_rate_limits_away rename to api_rate_limits`);
    }
  });

  it('reached every documented error status of every operation, and every code of the catalogue', () => {
    for (const d of operations) {
      for (const status of Object.keys(d.op.responses as Json)) {
        if (Number(status) >= 400) expect(reached, `${d.id} ${status}`).toContain(`${d.id} ${status}`);
      }
    }
    expect([...codesSeen].sort()).toEqual([...PUBLIC_API_ERROR_CODES].sort());
  });
});
