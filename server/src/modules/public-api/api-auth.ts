import type { ApiKeyScope } from '@carteiro/shared';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { ApiKeyContext } from './api-keys';
import { authenticateAndHitRateLimit, type KeyRider, type RateLimitState } from './rate-limit';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of a `/api/v1` request (null elsewhere, and on the public documentation routes). */
    apiKey: ApiKeyContext | null;
  }
}

const BEARER_RE = /^Bearer[ \t]+(\S+)[ \t]*$/i;
/** Query parameters under which clients habitually put keys; refused even when the value is not a key. */
const KEY_PARAMS = new Set(['api_key', 'apikey', 'api-key', 'key', 'token', 'access_token', 'authorization']);

/** 400 when the URL carries a key (keys go in the Authorization header only: URLs end up in logs). */
export function refuseKeyInUrl(request: FastifyRequest): void {
  const url = request.url;
  const q = url.indexOf('?');
  if (q < 0) return;
  const query = url.slice(q + 1);
  if (/ct_(?:live|test)(?:_|%5F)/i.test(query)) throw new AppError('api_key_in_url');
  for (const name of new URLSearchParams(query).keys()) {
    if (KEY_PARAMS.has(name.toLowerCase())) throw new AppError('api_key_in_url');
  }
}

/** The secret of the request's `Authorization: Bearer <key>` header, as sent; null without one. */
export function bearerSecret(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER_RE.exec(header) : null;
  return match?.[1] ?? null;
}

/**
 * `Authorization: Bearer <key>` looked up AND counted against the key's rate limit in one statement
 * (rate-limit.ts): the hot path of every `/api/v1` request. 401 `invalid_api_key` when there is no active key.
 * With a `rider`, the operation's read runs in the same statement and comes back as `read`.
 */
export async function authenticateAndLimitRequest(
  db: Db,
  request: FastifyRequest,
  limit: number,
  windowSeconds: number,
  rider?: KeyRider,
): Promise<{ key: ApiKeyContext; limit: RateLimitState; read: Record<string, unknown> }> {
  const secret = bearerSecret(request);
  const found = secret ? await authenticateAndHitRateLimit(db, secret, limit, windowSeconds, undefined, rider) : null;
  if (!found) throw new AppError('invalid_api_key');
  return found;
}

/** The API key of this request; for route handlers of `/api/v1` (the plugin guarantees it is there). */
export function requireApiKey(request: FastifyRequest): ApiKeyContext {
  if (!request.apiKey) throw new AppError('invalid_api_key');
  return request.apiKey;
}

/**
 * 403 unless the request's key has `scope`. `full` keys may do everything; `send_only` keys only what is
 * declared for them (operations with `sendOnly: true` — sending messages and reading their results).
 */
export function assertScope(request: FastifyRequest, scope: ApiKeyScope): void {
  const key = requireApiKey(request);
  if (scope === 'full' && key.scope !== 'full') throw new AppError('api_key_scope');
}
