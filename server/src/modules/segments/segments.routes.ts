import { segmentCreateSchema, segmentDraftSchema, segmentUpdateSchema } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import { requireActor } from '../auth/request-actor';
import { findCustomFieldNames } from '../contacts/custom-field-names';
import {
  type CampaignUsingSegment,
  countSegment,
  createSegment,
  deleteSegment,
  findSegment,
  findSegments,
  previewSegment,
  type RecentSentCampaigns,
  updateSegment,
} from './segments';

/**
 * Segments REST API (Contatos → Segmentos), scoped by the actor's account; count and preview take a draft tree.
 * What it reads of campaigns comes from `buildApp` (segments sit below campaigns).
 */
export async function segmentsRoutes(
  app: FastifyInstance,
  opts: { db: Db; recentSentCampaigns: RecentSentCampaigns; campaignUsingSegment: CampaignUsingSegment },
): Promise<void> {
  const { db, recentSentCampaigns, campaignUsingSegment } = opts;
  app.get('/api/segments', async (request) => {
    const actor = await requireActor(request);
    return { items: await findSegments(db, actor.accountId) };
  });
  /** The custom field keys the editor offers (the account's contacts' keys). */
  app.get('/api/segments/fields', async (request) => {
    const actor = await requireActor(request);
    return { customFields: await findCustomFieldNames(db, actor.accountId) };
  });
  app.post('/api/segments', async (request, reply) => {
    const actor = await requireActor(request);
    const input = parseInput(segmentCreateSchema, request.body);
    return reply.status(201).send(await createSegment(db, actor.accountId, input, recentSentCampaigns));
  });
  app.post('/api/segments/count', async (request) => {
    const actor = await requireActor(request);
    const { conditions } = parseInput(segmentDraftSchema, request.body);
    return { count: await countSegment(db, actor.accountId, conditions, recentSentCampaigns) };
  });
  app.post('/api/segments/preview', async (request) => {
    const actor = await requireActor(request);
    const { conditions } = parseInput(segmentDraftSchema, request.body);
    return { items: await previewSegment(db, actor.accountId, conditions, recentSentCampaigns) };
  });
  app.get('/api/segments/:id', async (request) => {
    const actor = await requireActor(request);
    return findSegment(db, actor.accountId, idParam(request.params, 'segment'));
  });
  app.patch('/api/segments/:id', async (request) => {
    const actor = await requireActor(request);
    const input = parseInput(segmentUpdateSchema, request.body);
    return updateSegment(db, actor.accountId, idParam(request.params, 'segment'), input, recentSentCampaigns);
  });
  app.delete('/api/segments/:id', async (request, reply) => {
    const actor = await requireActor(request);
    await deleteSegment(db, actor.accountId, idParam(request.params, 'segment'), campaignUsingSegment);
    return reply.status(204).send();
  });
}
