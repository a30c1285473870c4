import { templateCreateSchema, templatePreviewSchema, templateUpdateSchema, testSendSchema } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import type { Mailer } from '../../mail/mailer';
import { requireActor } from '../auth/request-actor';
import type { MailPolicyLimits } from '../mail-policy/assert-may-cause-mail';
import { STARTER_TEMPLATES } from './starter-templates';
import {
  createTemplate,
  deleteTemplate,
  duplicateTemplate,
  findTemplate,
  findTemplates,
  previewTemplate,
  sendTemplateTest,
  updateTemplate,
} from './templates';

/** Template library REST API, scoped by the actor's account. */
export async function templatesRoutes(
  app: FastifyInstance,
  opts: { db: Db; mailer: Mailer; publicUrl: string; mailPolicy: MailPolicyLimits },
): Promise<void> {
  const { db, mailer, publicUrl, mailPolicy } = opts;
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
    return findTemplate(db, actor.accountId, idParam(request.params, 'template'));
  });
  app.patch('/api/templates/:id', async (request) => {
    const actor = await requireActor(request);
    const input = parseInput(templateUpdateSchema, request.body);
    return updateTemplate(db, actor.accountId, idParam(request.params, 'template'), input);
  });
  app.delete('/api/templates/:id', async (request, reply) => {
    const actor = await requireActor(request);
    await deleteTemplate(db, actor.accountId, idParam(request.params, 'template'));
    return reply.status(204).send();
  });
  app.post('/api/templates/:id/duplicate', async (request, reply) => {
    const actor = await requireActor(request);
    return reply.status(201).send(await duplicateTemplate(db, actor.accountId, idParam(request.params, 'template')));
  });
  app.post('/api/templates/:id/preview', async (request) => {
    const actor = await requireActor(request);
    const input = parseInput(templatePreviewSchema, request.body ?? {});
    return previewTemplate(db, actor.accountId, idParam(request.params, 'template'), { ...input, publicUrl });
  });
  app.post('/api/templates/:id/test-send', async (request) => {
    const actor = await requireActor(request);
    const input = parseInput(testSendSchema, request.body);
    return sendTemplateTest(db, mailer, { causer: actor, limits: mailPolicy }, idParam(request.params, 'template'), {
      ...input,
      publicUrl,
    });
  });
}
