import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { idParam } from '../../http/id-param';
import { requireActor } from '../auth/request-actor';
import {
  campaignProgress,
  cancelCampaign,
  finishCampaignIfDone,
  pauseCampaign,
  resumeCampaign,
} from './campaign-controls';
import { startCampaignSend } from './start-campaign-send';

/** Send, pause, resume, cancel and live progress of the actor's own campaigns. */
export async function campaignSendRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  app.post('/api/campaigns/:id/send', async (request) => {
    const actor = await requireActor(request);
    return startCampaignSend(db, actor.accountId, idParam(request.params, 'campaign'), actor);
  });
  app.post('/api/campaigns/:id/pause', async (request) => {
    const actor = await requireActor(request);
    return pauseCampaign(db, actor.accountId, idParam(request.params, 'campaign'));
  });
  app.post('/api/campaigns/:id/resume', async (request) => {
    const actor = await requireActor(request);
    return resumeCampaign(db, actor.accountId, idParam(request.params, 'campaign'));
  });
  app.post('/api/campaigns/:id/cancel', async (request) => {
    const actor = await requireActor(request);
    return cancelCampaign(db, actor.accountId, idParam(request.params, 'campaign'), (id) =>
      finishCampaignIfDone(db, id),
    );
  });
  app.get('/api/campaigns/:id/progress', async (request, reply) => {
    const actor = await requireActor(request);
    reply.header('cache-control', 'no-store');
    return campaignProgress(db, actor.accountId, idParam(request.params, 'campaign'));
  });
}
