import type { ApiKeyScope } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { SignedInUser } from './sign-in';
import type { TestApp } from './test-app';

/** Creates an API key through the dashboard route (as `user`) and returns its secret. */
export async function createApiKeyFor(
  t: TestApp,
  user: SignedInUser,
  scope: ApiKeyScope = 'full',
  name = 'Loja virtual',
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: { ...user.headers, 'content-type': 'application/json' },
    payload: { name, scope },
  });
  if (res.statusCode !== 201) throw new Error(`API key creation failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { secret: string }).secret;
}

/** Headers of a server-to-server call with this key (no cookie, no Origin). */
export function bearer(secret: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${secret}`, ...extra };
}

/**
 * A second application on the same database as `t` (another API process), with its own configuration
 * overrides. Close it before `t`.
 */
export async function createSecondApp(t: TestApp, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: t.config.DATA_DIR,
    LOG_LEVEL: 'silent',
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    ...env,
  });
  const app = await buildApp({
    config,
    database: t.database,
    mailer: t.mailer,
    logger: pino({ level: 'silent' }),
    webDistDir: null,
  });
  await app.ready();
  return app;
}
