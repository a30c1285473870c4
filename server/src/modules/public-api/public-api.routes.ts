import { IDEMPOTENCY_KEY_RE } from '@carteiro/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { parseInput, unknownFieldsMessage } from '../../http/validate';
import type { Mailer } from '../../mail/mailer';
import type { ConsentLinks } from '../subscriptions/consent-requests';
import { authenticateAndLimitRequest, bearerSecret, refuseKeyInUrl, requireApiKey } from './api-auth';
import { isWellFormedApiKey } from './api-keys';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  isReplayableStatus,
  releaseIdempotencyKey,
  requestFingerprint,
} from './idempotency';
import { buildOpenApiDocument, type OpenApiExtras } from './openapi';
import { type Operation, toFastifyPath } from './operation';
import type { KeyRider } from './rate-limit';

/** What every operation file of the public API receives. */
export interface PublicApiDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
  /** What a double opt-in confirmation link needs (lists and contacts operations). */
  consentLinks: ConsentLinks;
}

/** An operation file: a function from the dependencies to its operations (see README.md in this folder). */
export type OperationGroup = (deps: PublicApiDeps) => Operation[];

export const PUBLIC_API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes of /api/v1: the operation they serve, or `public` for routes without a key (the documentation). */
    publicApi?: { operation?: Operation; public?: boolean };
  }
}

const idempotencyClaims = new WeakMap<FastifyRequest, string>();

/** Requests whose key is looked up by their handler, with their operation's read (foldsKeyRead). */
const keyPending = new WeakSet<FastifyRequest>();

/** The plugin's authentication of a request (its onRequest step), with an operation's read riding on it or not. */
type Authenticate = (
  request: FastifyRequest,
  reply: FastifyReply,
  operation: Operation | undefined,
  rider?: KeyRider,
) => Promise<Record<string, unknown>>;

/**
 * Bodies up to this size may be parsed before their key is looked up (foldsKeyRead): a caller without a valid key
 * makes us parse no more than that — about what the key look-up it causes anyway costs.
 */
export const FOLDED_KEY_READ_MAX_BODY_BYTES = 64 * 1024;

/**
 * Whether the request's key is looked up in one statement with its operation's first read (`keyRider`), after its
 * body is parsed, instead of in onRequest: one round trip fewer (a single transactional send). Every answer stays
 * the one it was — a request that does not parse is authenticated before it is refused, so a bad key is still a 401
 * first — and only where that costs nothing: a well-formed key (anything else is refused at once), a small body
 * (FOLDED_KEY_READ_MAX_BODY_BYTES, declared by Content-Length), and no Idempotency-Key (its claim comes before the
 * operation's read: a claim may wait for another request's answer, and a read made before that would be stale).
 */
function foldsKeyRead(request: FastifyRequest, operation: Operation | undefined): boolean {
  if (!operation?.keyRider) return false;
  if (request.headers['idempotency-key'] !== undefined) return false;
  const secret = bearerSecret(request);
  if (!secret || !isWellFormedApiKey(secret)) return false;
  const length = request.headers['content-length'];
  return length !== undefined && /^\d{1,9}$/.test(length) && Number(length) <= FOLDED_KEY_READ_MAX_BODY_BYTES;
}

/**
 * The public REST API v1 as one Fastify plugin (register it with `prefix: '/api/v1'`):
 * 1. onRequest: refuse keys in the URL; `Authorization: Bearer <key>` (401 `invalid_api_key`) and the per-key rate
 *    limit in the database, in one statement (`RateLimit-*` headers, pt-BR 429); the key's scope against the operation's (403).
 *    An operation with a `keyRider` (a single send) has its first read in that same statement: for the requests
 *    foldsKeyRead admits, the handler authenticates once the body is parsed, with the same answers.
 * 2. preHandler: `Idempotency-Key` on POST — claim the key in the database, or replay the first answer.
 * 3. the operation's handler, its params/query/body parsed by its zod schemas (pt-BR 400).
 * 4. onSend: store the answer of the request that holds an idempotency claim — a success or a 400 — or release
 *    the claim (any other answer may change without the request changing: a top-up, a verified sender…).
 * A path it serves called with another method answers 405 with `Allow`; an unknown path 404.
 */
export async function publicApiRoutes(
  app: FastifyInstance,
  opts: {
    deps: PublicApiDeps;
    groups: OperationGroup[];
    /** Named schemas and webhooks added to the OpenAPI document (e.g. webhook event payloads). */
    openApiExtras?: OpenApiExtras;
    /** Receives `METHOD /api/v1/path` of every route registered here (the OpenAPI coverage test reads it). */
    routeLog?: string[];
  },
): Promise<void> {
  const { deps } = opts;
  const { db, config } = deps;
  app.decorateRequest('apiKey', null);
  // Bodies are JSON only: Fastify's default text/plain parser would turn any other body into a string (a 400
  // about types) instead of the 415 it is.
  app.removeContentTypeParser('text/plain');
  if (opts.routeLog) {
    const log = opts.routeLog;
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') log.push(`${method} ${route.url}`);
    });
  }

  /**
   * The request's key, counted in its rate limit, and its scope against the operation's (401, 429, 403), with the
   * `RateLimit-*` headers on every answer that follows. With a `rider`, the operation's read runs in the same
   * statement: its columns are returned.
   */
  const authenticate = async (
    request: FastifyRequest,
    reply: FastifyReply,
    operation: Operation | undefined,
    rider?: KeyRider,
  ): Promise<Record<string, unknown>> => {
    // One round trip: the key (revocation holds at once), its last use, and this request counted in its window.
    const { key, limit, read } = await authenticateAndLimitRequest(
      db,
      request,
      config.API_RATE_LIMIT,
      config.API_RATE_LIMIT_WINDOW_SECONDS,
      rider,
    ).catch((error: unknown) => {
      // RFC 6750 §3: a 401 names the scheme; `invalid_token` only when a credential was presented.
      if (error instanceof AppError && error.code === 'invalid_api_key') {
        reply.header(
          'www-authenticate',
          request.headers.authorization ? 'Bearer realm="carteiro", error="invalid_token"' : 'Bearer realm="carteiro"',
        );
      }
      throw error;
    });
    request.apiKey = key;
    reply.header('ratelimit-limit', String(limit.limit));
    reply.header('ratelimit-remaining', String(limit.remaining));
    reply.header('ratelimit-reset', String(limit.resetSeconds));
    reply.header('ratelimit-policy', `${limit.limit};w=${config.API_RATE_LIMIT_WINDOW_SECONDS}`);
    if (!limit.allowed) {
      reply.header('retry-after', String(limit.resetSeconds));
      throw new AppError(
        'too_many_requests',
        `Limite de ${limit.limit} requisições por ${config.API_RATE_LIMIT_WINDOW_SECONDS} segundos desta conta atingido (todas as chaves somadas). Tente de novo em ${limit.resetSeconds} s.`,
      );
    }
    if (key.scope !== 'full' && !operation?.sendOnly) throw new AppError('api_key_scope');
    // A test key sends and reads its own messages (and uploads the files they attach), nothing else: events
    // would start automations that really send.
    const path = operation?.path ?? '';
    if (key.mode === 'test' && !path.startsWith('/messages') && !path.startsWith('/files')) {
      throw new AppError(
        'api_key_scope',
        'Chaves de teste (ct_test_…) só enviam e consultam mensagens (/messages) e os arquivos delas (/files). Use uma chave de produção.',
      );
    }
    return read;
  };

  app.addHook('onRequest', async (request, reply) => {
    refuseKeyInUrl(request);
    const publicApi = request.routeOptions.config?.publicApi;
    if (!publicApi || publicApi.public) return;
    // Its operation's read rides on the key statement: the handler authenticates, once the body is parsed.
    if (foldsKeyRead(request, publicApi.operation)) {
      keyPending.add(request);
      return;
    }
    await authenticate(request, reply, publicApi.operation);
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.apiKey) return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    if (typeof header !== 'string' || !IDEMPOTENCY_KEY_RE.test(header)) throw new AppError('idempotency_key_invalid');
    const claim = await claimIdempotencyKey(
      db,
      request.apiKey.accountId,
      // A test key's keys are its own: a sandbox answer is never replayed to a live key, nor the reverse.
      request.apiKey.mode === 'test' ? `test:${header}` : header,
      requestFingerprint(request.method, request.url, request.body),
      config.API_IDEMPOTENCY_WAIT_SECONDS * 1000,
    );
    if (claim.kind === 'run') {
      idempotencyClaims.set(request, claim.id);
      return;
    }
    reply.header('idempotent-replayed', 'true');
    if (claim.contentType) reply.header('content-type', claim.contentType);
    return reply.status(claim.status).send(claim.body === '' ? undefined : claim.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claimId = idempotencyClaims.get(request);
    if (!claimId) return payload;
    idempotencyClaims.delete(request);
    if (!isReplayableStatus(reply.statusCode) || (typeof payload !== 'string' && payload != null)) {
      await releaseIdempotencyKey(db, claimId);
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    await completeIdempotencyKey(db, claimId, {
      status: reply.statusCode,
      body: payload ?? '',
      contentType: typeof contentType === 'string' ? contentType : null,
    });
    return payload;
  });

  const operations = opts.groups.flatMap((group) => group(deps));
  for (const operation of operations) registerOperation(app, operation, authenticate);
  const allowed = allowedMethodsByPath(operations);
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = (request.url.split('?', 1)[0] ?? '').slice(PUBLIC_API_PREFIX.length);
    const methods = allowed.find(({ pattern }) => pattern.test(pathname))?.methods;
    if (methods) {
      reply.header('allow', methods.join(', '));
      throw new AppError(
        'method_not_allowed',
        `${request.method} não é aceito em ${PUBLIC_API_PREFIX}${pathname}. Use: ${methods.join(', ')}.`,
      );
    }
    throw new AppError('not_found', `Rota não encontrada: ${request.method} ${PUBLIC_API_PREFIX}${pathname}`);
  });

  let document: string | null = null;
  app.get('/openapi.json', { config: { csrf: false, publicApi: { public: true } } }, async (_request, reply) => {
    document ??= JSON.stringify(
      buildOpenApiDocument(operations, `${deps.publicUrl.replace(/\/$/, '')}${PUBLIC_API_PREFIX}`, opts.openApiExtras),
    );
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(document);
  });
}

/**
 * The operation's query or body parsed by its schema; an operation without one takes none, and a query parameter
 * or body field sent to it anyway is refused by name (400 `unknown_fields`) rather than ignored.
 */
/** For each path of the API (as a pattern matching its concrete URLs), the methods it answers. */
function allowedMethodsByPath(operations: Operation[]): Array<{ pattern: RegExp; methods: string[] }> {
  const byPath = new Map<string, string[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method]);
  byPath.set('/openapi.json', ['GET']);
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`),
    methods: methods.includes('GET') ? [...methods, 'HEAD'] : methods,
  }));
}

function parsePart(
  schema: z.ZodType | undefined,
  value: unknown,
  part: 'query' | 'body',
  fastPath?: (input: unknown) => unknown,
): unknown {
  if (schema) return parseInput(schema, part === 'body' ? (value ?? {}) : value, fastPath);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const names = Object.keys(value);
    if (names.length > 0) throw new AppError('unknown_fields', unknownFieldsMessage(names), { unknown: names });
    return undefined;
  }
  throw new AppError('validation_failed', ERROR_TEXT.publicApi.noBodyExpected);
}

/** Registers one operation as a Fastify route of the plugin; `authenticate` is the plugin's (onRequest's). */
function registerOperation(app: FastifyInstance, operation: Operation, authenticate: Authenticate): void {
  /** Its params, query and body parsed by its schemas (404 for params that do not parse, 400 for the others). */
  const parse = (request: FastifyRequest) => {
    let params: unknown;
    if (operation.params) {
      const parsed = operation.params.safeParse(request.params);
      if (!parsed.success) throw new AppError('not_found', operation.notFoundMessage);
      params = parsed.data;
    }
    const query = parsePart(operation.query, request.query, 'query');
    const body = parsePart(operation.body, request.body, 'body', operation.bodyFastPath);
    return { params, query, body };
  };
  const rider = operation.keyRider;
  app.route({
    method: operation.method,
    url: toFastifyPath(operation.path),
    ...(operation.bodyLimit ? { bodyLimit: operation.bodyLimit } : {}),
    config: { csrf: false, publicApi: { operation } },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      let keyRead: Record<string, unknown> | null = null;
      let input: ReturnType<typeof parse>;
      if (rider && keyPending.delete(request)) {
        // The key was not looked up yet (foldsKeyRead): it answers first, as for every request — a request that
        // does not parse is authenticated alone, then refused; one that parses carries the operation's read.
        try {
          input = parse(request);
        } catch (error) {
          await authenticate(request, reply, operation);
          throw error;
        }
        keyRead = await authenticate(request, reply, operation, rider(input.body));
      } else {
        input = parse(request);
      }
      const key = requireApiKey(request);
      const result = await operation.handler({ key, ...input, request, reply, keyRead });
      if (reply.sent) return reply;
      if (operation.success.status === 204) return reply.status(204).send();
      return reply.status(operation.success.status).send(result);
    },
    // What Fastify refuses before the handler (a body that is not JSON, too large, of another type): the key of a
    // request whose look-up waits for the handler answers first, as for every request.
    ...(rider
      ? {
          errorHandler: async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
            if (keyPending.delete(request)) await authenticate(request, reply, operation);
            throw error;
          },
        }
      : {}),
  });
}
