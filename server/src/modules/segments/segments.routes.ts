import { segmentCreateSchema, segmentDraftSchema, segmentUpdateSchema } from '@carteiro/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Clock, systemClock } from '../../clock';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import { requireActor } from '../auth/request-actor';
import { findCustomFieldNames } from '../contacts/custom-field-names';
import { takeRateLimitQuota } from '../rate-limits/rate-limit';
import {
  type CampaignUsingSegment,
  countSegment,
  createSegment,
  deleteSegment,
  type EditorReadOptions,
  findSegment,
  findSegments,
  previewSegment,
  type RecentSentCampaigns,
  SEGMENT_READ_TIMEOUT_MS,
  updateSegment,
} from './segments';

/**
 * The editor's counts and previews an account may ask for in a minute, together. A person editing asks for one of
 * each when they pause typing (the editor waits for the pause), far below this; a script asking without pause would
 * hold PostgreSQL's cores for every account — a count of the worst tree the editor allows reads every contact for
 * seconds at 1M contacts (docs/benchmarks.md).
 */
export const SEGMENT_READS_PER_MINUTE = 120;

/**
 * Runs one of the editor's reads bounded by SEGMENT_READ_TIMEOUT_MS and abandoned when the request's connection
 * closes before the answer: the editor aborts the previous count and preview each time the person pauses typing,
 * and a count nobody waits for would otherwise read every contact to its end. An abandoned read answers nothing
 * (nobody is there to read it) and is logged at info, as the normal event it is.
 */
async function whileClientWaits<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  read: (editor: EditorReadOptions) => Promise<T>,
): Promise<T | FastifyReply> {
  const left = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) left.abort();
  };
  reply.raw.once('close', onClose);
  try {
    return await read({ abandon: { signal: left.signal, log: request.log }, timeoutMs: SEGMENT_READ_TIMEOUT_MS });
  } catch (error) {
    if (!left.signal.aborted) throw error;
    request.log.info({ err: error }, 'segment read abandoned: the client closed the request');
    return reply.hijack();
  } finally {
    reply.raw.off('close', onClose);
  }
}

/**
 * Segments REST API (Contatos → Segmentos), scoped by the actor's account; count and preview take a draft tree.
 * What it reads of campaigns comes from `buildApp` (segments sit below campaigns).
 */
export async function segmentsRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    recentSentCampaigns: RecentSentCampaigns;
    campaignUsingSegment: CampaignUsingSegment;
    /** The clock of the per-account window of counts and previews (default: the system's). */
    clock?: Clock;
  },
): Promise<void> {
  const { db, recentSentCampaigns, campaignUsingSegment, clock = systemClock } = opts;
  /**
   * One count or preview from the account's window (the shared limiter, across processes); past it a 429 whose
   * Retry-After the editor turns into "tente de novo em …".
   */
  const takeSegmentRead = async (accountId: string): Promise<void> => {
    const quota = await takeRateLimitQuota(db, `segment-reads:${accountId}`, 1, SEGMENT_READS_PER_MINUTE, 60, clock());
    if (!quota.allowed) {
      throw new AppError('too_many_requests', ERROR_TEXT.segments.readsRateLimited, {
        retryAfterSeconds: quota.retryAfterSeconds,
      });
    }
  };
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
  app.post('/api/segments/count', async (request, reply) => {
    const actor = await requireActor(request);
    const { conditions } = parseInput(segmentDraftSchema, request.body);
    await takeSegmentRead(actor.accountId);
    return whileClientWaits(request, reply, async (editor) => ({
      count: await countSegment(db, actor.accountId, conditions, recentSentCampaigns, undefined, editor),
    }));
  });
  app.post('/api/segments/preview', async (request, reply) => {
    const actor = await requireActor(request);
    const { conditions } = parseInput(segmentDraftSchema, request.body);
    await takeSegmentRead(actor.accountId);
    return whileClientWaits(request, reply, async (editor) => ({
      items: await previewSegment(db, actor.accountId, conditions, recentSentCampaigns, undefined, editor),
    }));
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
