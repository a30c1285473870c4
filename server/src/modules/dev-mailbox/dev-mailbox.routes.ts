import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import { parseInput } from '../../http/validate';
import { clearDevMail, findDevMail, listDevMail } from './dev-mailbox';
import { renderMailboxList, renderMailboxMessage } from './dev-mailbox.page';

const idParams = z.object({ id: z.coerce.number().int().positive() });

/** /dev/mailbox pages and their JSON twin. Registered only while the mail catcher is on. */
export async function devMailboxRoutes(app: FastifyInstance, options: { db: Db }): Promise<void> {
  const { db } = options;

  app.get('/dev/mailbox', async (_request, reply) => {
    reply.type('text/html; charset=utf-8').send(renderMailboxList(await listDevMail(db)));
  });

  app.get('/dev/mailbox/:id', async (request, reply) => {
    const { id } = parseInput(idParams, request.params);
    const message = await findDevMail(db, id);
    if (!message) throw notFound('message');
    reply.type('text/html; charset=utf-8').send(renderMailboxMessage(message));
  });

  app.get('/dev/mailbox/:id/raw', async (request, reply) => {
    const { id } = parseInput(idParams, request.params);
    const message = await findDevMail(db, id);
    if (!message) throw notFound('message');
    reply.type('text/plain; charset=utf-8').send(message.raw);
  });

  app.get('/api/dev/mailbox', async () => {
    const messages = await listDevMail(db);
    return { messages };
  });

  app.get('/api/dev/mailbox/:id', async (request) => {
    const { id } = parseInput(idParams, request.params);
    const message = await findDevMail(db, id);
    if (!message) throw notFound('message');
    return message;
  });

  app.delete('/api/dev/mailbox', async (_request, reply) => {
    await clearDevMail(db);
    reply.status(204).send();
  });
}
