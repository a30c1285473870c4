import { listCreateSchema, listUpdateSchema } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import { requireActor } from '../auth/request-actor';
import { createList } from './create-list';
import { deleteList } from './delete-list';
import { findList, findLists } from './find-lists';
import { updateList } from './update-list';

/** Lists REST API, scoped by the actor's account. */
export async function listsRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  app.get('/api/lists', async (request) => {
    const actor = await requireActor(request);
    return { items: await findLists(db, actor.accountId) };
  });
  app.post('/api/lists', async (request, reply) => {
    const actor = await requireActor(request);
    return reply.status(201).send(await createList(db, actor.accountId, parseInput(listCreateSchema, request.body)));
  });
  app.get('/api/lists/:id', async (request) => {
    const actor = await requireActor(request);
    return findList(db, actor.accountId, idParam(request.params, 'list'));
  });
  app.patch('/api/lists/:id', async (request) => {
    const actor = await requireActor(request);
    return updateList(db, actor.accountId, idParam(request.params, 'list'), parseInput(listUpdateSchema, request.body));
  });
  app.delete('/api/lists/:id', async (request, reply) => {
    const actor = await requireActor(request);
    await deleteList(db, actor.accountId, idParam(request.params, 'list'));
    return reply.status(204).send();
  });
}
