import {
  webhookDeliveryFilterSchema,
  webhookEndpointCreateSchema,
  webhookEndpointUpdateSchema,
} from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import { requireActor, requireRole } from '../auth/request-actor';
import { listDeliveries } from './delivery-log';
import { redeliver } from './dispatch';
import { emitTestEvent } from './emit-event';
import {
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listEndpoints,
  revealSecret,
  rotateSecret,
  updateEndpoint,
} from './endpoints';
import type { SecretBox } from './signing';
import type { GuardOptions } from './ssrf-guard';

/**
 * Outbound webhooks of the actor's account (session-authenticated; owners and admins manage them, since the
 * signing secret and the URLs are integration credentials).
 */
export async function webhooksRoutes(
  app: FastifyInstance,
  opts: { db: Db; box: SecretBox; guard: GuardOptions },
): Promise<void> {
  const { db, box, guard } = opts;
  const manager = async (request: Parameters<typeof requireActor>[0]) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    return actor;
  };

  app.get('/api/webhooks/endpoints', async (request) => {
    const actor = await manager(request);
    return { items: await listEndpoints(db, actor.accountId) };
  });
  app.post('/api/webhooks/endpoints', async (request, reply) => {
    const actor = await manager(request);
    const input = parseInput(webhookEndpointCreateSchema, request.body);
    return reply.status(201).send(await createEndpoint({ db, box, guard }, actor.accountId, input));
  });
  app.patch('/api/webhooks/endpoints/:id', async (request) => {
    const actor = await manager(request);
    const id = idParam(request.params, 'webhookEndpoint');
    return updateEndpoint({ db, guard }, actor.accountId, id, parseInput(webhookEndpointUpdateSchema, request.body));
  });
  app.delete('/api/webhooks/endpoints/:id', async (request, reply) => {
    const actor = await manager(request);
    await deleteEndpoint(db, actor.accountId, idParam(request.params, 'webhookEndpoint'));
    return reply.status(204).send();
  });
  app.get('/api/webhooks/endpoints/:id/secret', async (request, reply) => {
    const actor = await manager(request);
    reply.header('cache-control', 'no-store');
    return revealSecret(db, box, actor.accountId, idParam(request.params, 'webhookEndpoint'));
  });
  app.post('/api/webhooks/endpoints/:id/secret/rotate', async (request, reply) => {
    const actor = await manager(request);
    reply.header('cache-control', 'no-store');
    return rotateSecret(db, box, actor.accountId, idParam(request.params, 'webhookEndpoint'));
  });
  app.post('/api/webhooks/endpoints/:id/test', async (request, reply) => {
    const actor = await manager(request);
    const endpoint = await findEndpoint(db, actor.accountId, idParam(request.params, 'webhookEndpoint'));
    const eventId = await emitTestEvent(db, actor.accountId, endpoint.id);
    return reply.status(202).send({ eventId });
  });
  app.get('/api/webhooks/endpoints/:id/deliveries', async (request) => {
    const actor = await manager(request);
    const endpoint = await findEndpoint(db, actor.accountId, idParam(request.params, 'webhookEndpoint'));
    const filter = parseInput(webhookDeliveryFilterSchema, request.query);
    return { items: await listDeliveries(db, actor.accountId, endpoint.id, filter) };
  });
  app.post('/api/webhooks/deliveries/:id/redeliver', async (request, reply) => {
    const actor = await manager(request);
    const id = idParam(request.params, 'delivery');
    if (!(await redeliver(db, actor.accountId, id))) {
      throw new AppError('conflict', ERROR_TEXT.webhooks.deliveryNotRetriable);
    }
    return reply.status(202).send({ id });
  });
}
