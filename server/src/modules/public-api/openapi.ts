import {
  API_KEY_PREFIX,
  ERROR_HTTP_STATUS,
  ERROR_MESSAGES_PT_BR,
  PUBLIC_API_ERROR_CODES,
  type PublicApiErrorCode,
} from '@carteiro/shared';
import { z } from 'zod';
import type { Operation } from './operation';
import { errorSchema } from './responses';

type JsonSchema = Record<string, unknown>;

/** Extra parts merged at build time: named schemas (e.g. webhook payloads) and the document's `webhooks` map. */
export interface OpenApiExtras {
  schemas?: Record<string, z.ZodType>;
  webhooks?: Record<string, { summary: string; description?: string; schema: z.ZodType }>;
}

/** An example id for path parameters in code samples. */
export const EXAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/**
 * The error codes an operation can answer: those that follow from its shape (every operation authenticates and
 * counts the request; one with a body parses JSON; one with a path id can miss it; a POST takes an
 * Idempotency-Key; a full-scope one refuses send-only keys) and the ones it declares itself.
 */
export function operationErrorCodes(op: Operation): PublicApiErrorCode[] {
  const codes = new Set<PublicApiErrorCode>([
    'api_key_in_url',
    'invalid_api_key',
    'unknown_fields',
    'too_many_requests',
    'internal_error',
  ]);
  if (!op.sendOnly) codes.add('api_key_scope');
  if (op.query) codes.add('validation_failed');
  if (op.method !== 'GET') {
    for (const code of ['validation_failed', 'invalid_json', 'payload_too_large', 'unsupported_media_type'] as const)
      codes.add(code);
  }
  if (op.params) codes.add('not_found');
  if (op.method === 'POST') {
    for (const code of ['idempotency_key_invalid', 'idempotency_key_reused', 'idempotency_key_in_progress'] as const)
      codes.add(code);
  }
  for (const code of op.errors ?? []) codes.add(code);
  return PUBLIC_API_ERROR_CODES.filter((code) => codes.has(code));
}

/** The operation's error answers by status, each with the codes it may carry (an `enum` the body must match). */
function errorResponses(op: Operation): Record<string, unknown> {
  const byStatus = new Map<number, PublicApiErrorCode[]>();
  for (const code of operationErrorCodes(op)) {
    const status = ERROR_HTTP_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_MESSAGES_PT_BR[code]}`).join('\n\n'),
      ...(status === 429 ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } : {}),
      ...(status === 405 ? { headers: { Allow: { $ref: '#/components/headers/Allow' } } } : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Error' },
              { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } },
            ],
          },
        },
      },
    };
  }
  return responses;
}

class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  /** The JSON Schema (2020-12, as OpenAPI 3.1 uses) of a zod schema; named parts go to components. */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const result = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    const defs = (result.$defs ?? {}) as Record<string, JsonSchema>;
    delete result.$defs;
    delete result.$schema;
    const names = new Map<string, string>();
    for (const name of Object.keys(defs)) names.set(name, this.nameFor(name, io, defs[name] as JsonSchema, defs));
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== 'object') return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
          out[k] = `#/components/schemas/${names.get(v.slice(8)) ?? v.slice(8)}`;
        } else out[k] = rewrite(v);
      }
      return out;
    };
    for (const [name, def] of Object.entries(defs))
      this.components[names.get(name) as string] = plainSchema(rewrite(def) as JsonSchema);
    return plainSchema(rewrite(result) as JsonSchema);
  }

  private nameFor(name: string, io: 'input' | 'output', def: JsonSchema, _defs: Record<string, JsonSchema>): string {
    const existing = this.components[name];
    if (!existing || JSON.stringify(existing) === JSON.stringify(def)) return name;
    return `${name}${io === 'input' ? 'Input' : 'Output'}`;
  }
}

/** Every JSON type: the explicit form of "any value". */
const ANY_TYPE = ['object', 'array', 'string', 'number', 'boolean', 'null'];
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * The same schema in the plainest equivalent form, because documentation viewers (Scalar, which reads the
 * document the way many client generators do) reject a referenced schema holding a type-less subschema:
 * `anyOf: [{ type: T }, { type: 'null' }]` becomes `type: [T, 'null']`, `additionalProperties: {}` becomes
 * `true`, and a type-less "any value" (`{}` or only a description) names every JSON type.
 */
function plainSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  const each = (value: unknown) => (value && typeof value === 'object' ? plainSchema(value as JsonSchema) : value);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(each);
  }
  for (const key of ['items', 'not', 'propertyNames', 'contains'] as const) if (out[key]) out[key] = each(out[key]);
  if (out.properties) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, JsonSchema>).map(([name, value]) => [name, each(value)]),
    );
  }
  const extra = out.additionalProperties;
  if (extra && typeof extra === 'object') {
    out.additionalProperties = Object.keys(extra).length === 0 ? true : each(extra);
  }
  const union = out.anyOf as JsonSchema[] | undefined;
  if (union?.length === 2) {
    const [value, nothing] = union as [JsonSchema, JsonSchema];
    if (typeof value.type === 'string' && nothing.type === 'null' && Object.keys(nothing).length === 1) {
      const { anyOf: _union, ...rest } = out;
      return { ...value, ...rest, type: [value.type, 'null'] };
    }
  }
  const isTypeless = !('type' in out) && !('$ref' in out) && !('const' in out) && !('enum' in out);
  const hasKeywords = Object.keys(out).some((key) => !ANNOTATIONS.has(key));
  if (isTypeless && !hasKeywords) return { type: ANY_TYPE, ...out };
  return out;
}

function exampleUrl(serverUrl: string, op: Operation): string {
  const path = op.path.replace(/\{\w+\}/g, EXAMPLE_ID);
  const query = op.example?.query ? `?${new URLSearchParams(op.example.query).toString()}` : '';
  return `${serverUrl}${path}${query}`;
}

/** curl, Node (fetch), Python (requests) and PHP for one operation (`x-codeSamples`). */
export function codeSamples(serverUrl: string, op: Operation): Array<{ lang: string; label: string; source: string }> {
  const url = exampleUrl(serverUrl, op);
  const key = `${API_KEY_PREFIX}SUA_CHAVE`;
  const hasBody = op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH';
  const body = hasBody ? (op.example?.body ?? {}) : undefined;
  const json = body === undefined ? '' : JSON.stringify(body);
  const pretty = body === undefined ? '' : JSON.stringify(body, null, 2);
  const idem = op.method === 'POST';
  const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const curl = [
    `curl -X ${op.method} ${shellQuote(url)}`,
    `  -H ${shellQuote(`Authorization: Bearer ${key}`)}`,
    ...(idem ? [`  -H ${shellQuote('Idempotency-Key: 6f1c2a9e-pedido-1001')}`] : []),
    ...(hasBody ? [`  -H ${shellQuote('Content-Type: application/json')}`, `  -d ${shellQuote(json)}`] : []),
  ].join(' \\\n');
  const nodeHeaders = [
    `    Authorization: 'Bearer ${key}',`,
    ...(idem ? [`    'Idempotency-Key': '6f1c2a9e-pedido-1001',`] : []),
    ...(hasBody ? [`    'Content-Type': 'application/json',`] : []),
  ].join('\n');
  const node = [
    `const res = await fetch('${url}', {`,
    `  method: '${op.method}',`,
    `  headers: {\n${nodeHeaders}\n  },`,
    ...(hasBody ? [`  body: JSON.stringify(${pretty.replace(/\n/g, '\n  ')}),`] : []),
    '});',
    op.success.status === 204 ? 'console.log(res.status);' : 'console.log(res.status, await res.json());',
  ].join('\n');
  const python = [
    'import requests',
    '',
    `res = requests.request(`,
    `    "${op.method}",`,
    `    "${url}",`,
    `    headers={"Authorization": "Bearer ${key}"${idem ? ', "Idempotency-Key": "6f1c2a9e-pedido-1001"' : ''}},`,
    ...(hasBody ? [`    json=${pythonLiteral(body)},`] : []),
    ')',
    op.success.status === 204 ? 'print(res.status_code)' : 'print(res.status_code, res.json())',
  ].join('\n');
  const php = [
    '<?php',
    `$ch = curl_init('${url}');`,
    'curl_setopt_array($ch, [',
    `    CURLOPT_CUSTOMREQUEST => '${op.method}',`,
    '    CURLOPT_RETURNTRANSFER => true,',
    '    CURLOPT_HTTPHEADER => [',
    `        'Authorization: Bearer ${key}',`,
    ...(idem ? [`        'Idempotency-Key: 6f1c2a9e-pedido-1001',`] : []),
    ...(hasBody ? [`        'Content-Type: application/json',`] : []),
    '    ],',
    ...(hasBody ? [`    CURLOPT_POSTFIELDS => '${json.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}',`] : []),
    ']);',
    '$body = curl_exec($ch);',
    'echo curl_getinfo($ch, CURLINFO_HTTP_CODE), "\\n", $body;',
  ].join('\n');
  return [
    { lang: 'Shell', label: 'curl', source: curl },
    { lang: 'JavaScript', label: 'Node (fetch)', source: node },
    { lang: 'Python', label: 'Python (requests)', source: python },
    { lang: 'PHP', label: 'PHP', source: php },
  ];
}

function pythonLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\btrue\b/g, 'True')
    .replace(/\bfalse\b/g, 'False')
    .replace(/\bnull\b/g, 'None');
}

function objectProperties(schema: JsonSchema): Array<[string, JsonSchema, boolean]> {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => [name, s, required.has(name)]);
}

const DESCRIPTION = `API REST do Carteiro: contatos, listas, modelos, campanhas, saldo, supressões e envio transacional.

**Autenticação**: crie uma chave em *Painel → API* e envie-a em todo pedido no cabeçalho \`Authorization: Bearer <chave>\` (nunca na URL). Chaves "somente envio" só enviam mensagens e leem os resultados delas.

**Limite de requisições**: por conta (todas as chaves somadas), contado no banco de dados. Toda resposta traz \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` e \`RateLimit-Policy\`; acima do limite, 429 com \`Retry-After\`.

**Idempotência**: todo POST aceita \`Idempotency-Key\` (1 a 255 caracteres). A mesma chave com o mesmo corpo em até 24 horas devolve a primeira resposta (com \`Idempotent-Replayed: true\`) sem fazer nada de novo; com outro corpo, 422. Só são guardadas respostas que não mudam sozinhas — sucessos e erros 400 da própria requisição; um 402, 403, 404, 409, 429 ou 5xx não é repetido, e a mesma chave roda de novo depois de uma recarga ou de um remetente verificado.

**Chaves de teste** (\`ct_test_…\`, "Chave de teste" no painel): validam, renderizam e respondem como as de produção, mas não entregam nem cobram nada; a mensagem aparece na consulta como \`delivered\` com \`sandbox: true\`, o conteúdo renderizado em \`GET /messages/{id}/content\`, e o webhook \`message.delivered\` chega com \`test: true\`. Só enviam e consultam mensagens; mensagens de teste e de produção não se enxergam.

**Campos desconhecidos**: um campo que a operação não conhece (no corpo, em qualquer objeto dentro dele, ou na query string) é recusado com 400 \`unknown_fields\`, que nomeia cada um — nunca ignorado em silêncio.

**Erros**: sempre \`{ "error": { "code", "message", "details" } }\`, com a mensagem em português do Brasil. Cada \`code\` tem um único status HTTP em todas as operações; o \`enum\` de \`Error.code\` é o catálogo completo, e cada resposta de erro lista os códigos que pode trazer (tabela com o que fazer em docs/api-errors.md). Valores em dinheiro são inteiros em milésimos de real (5 = R$ 0,005).`;

/** The OpenAPI 3.1 document of the public API, generated from the operations' zod schemas. */
export function buildOpenApiDocument(
  operations: Operation[],
  serverUrl: string,
  extras: OpenApiExtras = {},
): JsonSchema {
  const collector = new SchemaCollector();
  collector.convert(errorSchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  for (const op of operations) {
    for (const tag of op.tags) if (!tags.includes(tag)) tags.push(tag);
    const parameters: unknown[] = [];
    if (op.params) {
      for (const [name, schema] of objectProperties(collector.convert(op.params, 'input'))) {
        parameters.push({ name, in: 'path', required: true, schema });
      }
    }
    if (op.query) {
      for (const [name, schema, required] of objectProperties(collector.convert(op.query, 'input'))) {
        const { description, ...rest } = schema;
        parameters.push({ name, in: 'query', required, schema: rest, ...(description ? { description } : {}) });
      }
    }
    if (op.method === 'POST') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    const success: Record<string, unknown> = {
      description: op.success.description,
      headers: rateLimitHeaderRefs(),
    };
    if (op.success.schema) {
      success.content = { 'application/json': { schema: collector.convert(op.success.schema, 'output') } };
    }
    const responses: Record<string, unknown> = { [String(op.success.status)]: success, ...errorResponses(op) };
    const entry: Record<string, unknown> = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      ...(parameters.length ? { parameters } : {}),
      responses,
      'x-codeSamples': codeSamples(serverUrl, op),
      ...(op.sendOnly ? { 'x-carteiro-send-only': true } : {}),
      // The largest JSON body when it is not the server's BODY_LIMIT_BYTES (413 above it).
      ...(op.bodyLimit ? { 'x-carteiro-max-body-bytes': op.bodyLimit } : {}),
    };
    if (op.body) {
      const example = op.example?.body;
      entry.requestBody = {
        required: true,
        content: {
          'application/json': {
            schema: collector.convert(op.body, 'input'),
            ...(example !== undefined ? { example } : {}),
          },
        },
      };
    }
    const pathItem = paths[op.path] ?? {};
    pathItem[op.method.toLowerCase()] = entry;
    paths[op.path] = pathItem;
  }
  for (const [name, schema] of Object.entries(extras.schemas ?? {})) {
    collector.components[name] = collector.convert(schema, 'output');
  }
  const webhooks: Record<string, unknown> = {};
  for (const [name, hook] of Object.entries(extras.webhooks ?? {})) {
    webhooks[name] = {
      post: {
        summary: hook.summary,
        ...(hook.description ? { description: hook.description } : {}),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: collector.convert(hook.schema, 'output') } },
        },
        responses: { '200': { description: 'Recebido (qualquer 2xx).' } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'API do Carteiro', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: serverUrl, description: 'Carteiro' }],
    security: [{ bearerAuth: [] }],
    tags: tags.map((name) => ({ name })),
    paths,
    ...(Object.keys(webhooks).length ? { webhooks } : {}),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: `${API_KEY_PREFIX}…`,
          description: 'A chave de API criada em Painel → API.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Repetir a mesma chave com o mesmo corpo em até 24 h devolve a primeira resposta sem repetir a ação.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        'RateLimit-Limit': { description: 'Requisições permitidas por janela.', schema: { type: 'integer' } },
        'RateLimit-Remaining': { description: 'Requisições restantes nesta janela.', schema: { type: 'integer' } },
        'RateLimit-Reset': { description: 'Segundos até a janela recomeçar.', schema: { type: 'integer' } },
        'Retry-After': { description: 'Segundos a esperar antes de repetir.', schema: { type: 'integer' } },
        Allow: { description: 'Os métodos que este endereço aceita.', schema: { type: 'string' } },
      },
      schemas: collector.components,
    },
  };
}

function rateLimitHeaderRefs(): Record<string, unknown> {
  return Object.fromEntries(
    ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((h) => [
      h,
      { $ref: `#/components/headers/${h}` },
    ]),
  );
}
