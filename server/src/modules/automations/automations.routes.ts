import { automationSaveSchema } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import { requireActor } from '../auth/request-actor';
import { automationReport } from './automation-report';
import {
  activateAutomation,
  createAutomation,
  deleteAutomation,
  findAutomation,
  findAutomations,
  pauseAutomation,
  updateAutomation,
} from './automations';

/** Automations (Automações) of the actor's account: CRUD, activate/pause/resume, report. */
export async function automationsRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;

  app.get('/api/automations', async (request) => {
    const actor = await requireActor(request);
    return { items: await findAutomations(db, actor.accountId) };
  });
  app.post('/api/automations', async (request, reply) => {
    const actor = await requireActor(request);
    const input = parseInput(automationSaveSchema, request.body);
    return reply.status(201).send(await createAutomation(db, actor.accountId, input));
  });
  app.get('/api/automations/:id', async (request) => {
    const actor = await requireActor(request);
    return findAutomation(db, actor.accountId, idParam(request.params, 'automation'));
  });
  app.put('/api/automations/:id', async (request) => {
    const actor = await requireActor(request);
    const input = parseInput(automationSaveSchema, request.body);
    return updateAutomation(db, actor.accountId, idParam(request.params, 'automation'), input);
  });
  app.delete('/api/automations/:id', async (request, reply) => {
    const actor = await requireActor(request);
    await deleteAutomation(db, actor.accountId, idParam(request.params, 'automation'));
    return reply.status(204).send();
  });
  app.post('/api/automations/:id/activate', async (request) => {
    const actor = await requireActor(request);
    if (!actor.emailVerified) {
      throw new AppError('forbidden', ERROR_TEXT.automations.confirmEmailToActivate);
    }
    return activateAutomation(db, actor.accountId, idParam(request.params, 'automation'));
  });
  app.post('/api/automations/:id/pause', async (request) => {
    const actor = await requireActor(request);
    return pauseAutomation(db, actor.accountId, idParam(request.params, 'automation'));
  });
  app.get('/api/automations/:id/report', async (request) => {
    const actor = await requireActor(request);
    return automationReport(db, actor.accountId, idParam(request.params, 'automation'));
  });
}
