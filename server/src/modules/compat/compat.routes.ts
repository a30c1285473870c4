import { validationText } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { parseInput } from '../../http/validate';
import { requireActor, requireSessionUser } from '../auth/request-actor';
import { type CompatCaller, compatCount, compatCreate, compatGet, compatSingle, compatUpdate } from './compat';

const collection = z
  .string({ error: validationText('collectionRequired') })
  .min(1, validationText('collectionRequired'))
  .max(50);
const where = z
  .array(
    z.object({
      field: z.string().max(100),
      operator: z.string().max(20),
      value: z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]),
    }),
  )
  .max(10, validationText('filtersMax'));
const order = z
  .array(
    z.object({
      field: z.string().max(100),
      type: z.enum(['asc', 'desc'], validationText('sortOrderInvalid')).optional(),
    }),
  )
  .max(3, validationText('ordersMax'));
const data = z.record(z.string(), z.unknown(), { error: validationText('documentDataRequired') });
const id = z.string({ error: validationText('idRequired') }).max(100);

/**
 * The compatibility API of spec §7 (the old client's document calls), translated onto the domain modules:
 * session required, the caller's own account only, known collections and fields only. `POST /send-campaign`
 * belongs to the sending engine and is registered there.
 */
export async function compatRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;

  async function caller(request: Parameters<typeof requireActor>[0]): Promise<CompatCaller> {
    const actor = await requireActor(request);
    const user = await requireSessionUser(request); // cached by requireActor: no second session lookup
    return { userId: actor.userId, name: user.name, email: actor.email, accountId: actor.accountId, role: actor.role };
  }

  app.post('/firebase', async (request, reply) => {
    const body = parseInput(z.object({ collection, data }), request.body);
    return reply.status(201).send(await compatCreate(db, await caller(request), body));
  });
  app.post('/firebase/get', async (request) => {
    const body = parseInput(
      z.object({ collection, id: id.optional(), where: where.optional(), order: order.optional() }),
      request.body,
    );
    return compatGet(db, await caller(request), body);
  });
  app.post('/firebase/single', async (request) => {
    const body = parseInput(z.object({ collection, id }), request.body);
    return compatSingle(db, await caller(request), body);
  });
  app.post('/firebase/count', async (request) => {
    const body = parseInput(z.object({ collection, where: where.optional() }), request.body);
    return compatCount(db, await caller(request), body);
  });
  app.patch('/firebase', async (request) => {
    const body = parseInput(z.object({ collection, id, data }), request.body);
    return compatUpdate(db, await caller(request), body);
  });
}
