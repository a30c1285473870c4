import { templateCreateSchema, templateUpdateSchema } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { parseInput } from '../../http/validate';
import { requireActor } from '../auth/request-actor';
import { STARTER_TEMPLATES } from './starter-templates';
import {
  createTemplate,
  deleteTemplate,
  duplicateTemplate,
  findTemplate,
  findTemplates,
  updateTemplate,
} from './templates';

function templateId(params: unknown): string {
  const parsed = z.object({ id: z.uuid() }).safeParse(params);
  if (!parsed.success) throw new AppError('not_found', 'Modelo não encontrado.');
  return parsed.data.id;
}

/** Template library REST API, scoped by the actor's account. */
export async function templatesRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  app.get('/api/templates/starters', async (request) => {
    await requireActor(request);
    return { items: STARTER_TEMPLATES };
  });
  app.get('/api/templates', async (request) => {
    const actor = await requireActor(request);
    return { items: await findTemplates(db, actor.accountId) };
  });
  app.post('/api/templates', async (request, reply) => {
    const actor = await requireActor(request);
    const input = parseInput(templateCreateSchema, request.body);
    return reply.status(201).send(await createTemplate(db, actor.accountId, input));
  });
  app.get('/api/templates/:id', async (request) => {
    const actor = await requireActor(request);
    return findTemplate(db, actor.accountId, templateId(request.params));
  });
  app.patch('/api/templates/:id', async (request) => {
    const actor = await requireActor(request);
    const input = parseInput(templateUpdateSchema, request.body);
    return updateTemplate(db, actor.accountId, templateId(request.params), input);
  });
  app.delete('/api/templates/:id', async (request, reply) => {
    const actor = await requireActor(request);
    await deleteTemplate(db, actor.accountId, templateId(request.params));
    return reply.status(204).send();
  });
  app.post('/api/templates/:id/duplicate', async (request, reply) => {
    const actor = await requireActor(request);
    return reply.status(201).send(await duplicateTemplate(db, actor.accountId, templateId(request.params)));
  });
}
