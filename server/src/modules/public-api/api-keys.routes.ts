import { apiKeyCreateSchema } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import { requireActor, requireRole } from '../auth/request-actor';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys';

/**
 * The dashboard's management of API keys (session auth, `/dashboard/api`): every member reads the list;
 * owners and admins create and revoke. The secret appears only in the creation answer (no-store).
 */
export async function apiKeysRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  app.get('/api/api-keys', async (request) => {
    const actor = await requireActor(request);
    return { items: await listApiKeys(db, actor.accountId) };
  });
  app.post('/api/api-keys', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    // A key sends like the dashboard does, so it needs what sending needs: a confirmed e-mail.
    if (!actor.emailVerified) throw new AppError('forbidden', ERROR_TEXT.publicApi.confirmEmailForKeys);
    const created = await createApiKey(db, actor.accountId, actor.userId, parseInput(apiKeyCreateSchema, request.body));
    return reply.status(201).header('cache-control', 'no-store').send(created);
  });
  app.delete('/api/api-keys/:id', async (request) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    return revokeApiKey(db, actor.accountId, idParam(request.params, 'apiKey'), actor.userId);
  });
}
