import { validationText } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import { parseInput } from '../../http/validate';
import { requireActor } from '../auth/request-actor';
import { startCampaignSend } from '../campaigns/start-campaign-send';

/**
 * Spec §7 `POST /send-campaign {id}`: the old client's "Enviar". Same rules as the REST twin
 * (`POST /api/campaigns/:id/send`); answers `{ ok, campaignId, recipients, reservedMillis }`.
 */
export async function sendCampaignCompatRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  app.post('/send-campaign', async (request) => {
    const actor = await requireActor(request);
    const { id } = parseInput(
      z.object({ id: z.string({ error: validationText('campaignIdRequired') }).max(100) }),
      request.body,
    );
    if (!z.uuid().safeParse(id).success) throw notFound('campaign');
    return startCampaignSend(opts.db, actor.accountId, id, actor);
  });
}
