import {
  campaignCreateSchema,
  campaignPreviewSchema,
  campaignScheduleSchema,
  campaignTestSendSchema,
  campaignUpdateSchema,
  resendNonOpenersSchema,
  validationText,
} from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Clock, systemClock } from '../../clock';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import type { Mailer } from '../../mail/mailer';
import { requireActor } from '../auth/request-actor';
import type { MailPolicyLimits } from '../mail-policy/assert-may-cause-mail';
import { takeRateLimitQuota } from '../rate-limits/rate-limit';
import { previewCampaign, sendCampaignTest, summariseCampaign } from './campaign-preview';
import {
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  findCampaign,
  findCampaigns,
  findCampaignsBetween,
  scheduleCampaign,
  unscheduleCampaign,
  unverifiedCampaignSenders,
  updateCampaign,
} from './campaigns';
import { PUBLIC_VIEWER_PER_MINUTE, renderPublicCampaign } from './public-viewer';
import { resendToNonOpeners } from './resend-non-openers';

const calendarQuery = z.object({
  from: z.iso.datetime({ offset: true, error: validationText('periodStartInvalid') }),
  to: z.iso.datetime({ offset: true, error: validationText('periodEndInvalid') }),
});

/** The "ver no navegador" link's message token; anything malformed is ignored (generic rendering). */
const viewerQuery = z.object({
  t: z
    .string()
    .optional()
    .transform((value) => (value && /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined)),
});

/** Campaigns REST API, scoped by the actor's account (created_by), and the public template viewer's data. */
export async function campaignsRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    mailer: Mailer;
    publicUrl: string;
    mailPolicy: MailPolicyLimits;
    /** The clock of the public viewer's rate window (default: the system's). */
    clock?: Clock;
  },
): Promise<void> {
  const { db, mailer, publicUrl, mailPolicy, clock = systemClock } = opts;

  // The dashboard's notice of campaign senders to confirm before the next send: campaigns' data, under /api/senders.
  app.get('/api/senders/unverified', async (request) => {
    const actor = await requireActor(request);
    return { emails: await unverifiedCampaignSenders(db, actor.accountId) };
  });
  app.get('/api/campaigns', async (request) => {
    const actor = await requireActor(request);
    return { items: await findCampaigns(db, actor.accountId) };
  });
  app.get('/api/campaigns/calendar', async (request) => {
    const actor = await requireActor(request);
    const { from, to } = parseInput(calendarQuery, request.query);
    return { items: await findCampaignsBetween(db, actor.accountId, new Date(from), new Date(to)) };
  });
  app.post('/api/campaigns', async (request, reply) => {
    const actor = await requireActor(request);
    const input = parseInput(campaignCreateSchema, request.body);
    return reply.status(201).send(await createCampaign(db, actor.accountId, input));
  });
  app.get('/api/campaigns/:id', async (request) => {
    const actor = await requireActor(request);
    return findCampaign(db, actor.accountId, idParam(request.params, 'campaign'));
  });
  app.patch('/api/campaigns/:id', async (request) => {
    const actor = await requireActor(request);
    const input = parseInput(campaignUpdateSchema, request.body);
    return updateCampaign(db, actor.accountId, idParam(request.params, 'campaign'), input);
  });
  app.delete('/api/campaigns/:id', async (request, reply) => {
    const actor = await requireActor(request);
    await deleteCampaign(db, actor.accountId, idParam(request.params, 'campaign'));
    return reply.status(204).send();
  });
  app.post('/api/campaigns/:id/duplicate', async (request, reply) => {
    const actor = await requireActor(request);
    return reply.status(201).send(await duplicateCampaign(db, actor.accountId, idParam(request.params, 'campaign')));
  });
  app.post('/api/campaigns/:id/resend-non-openers', async (request, reply) => {
    const actor = await requireActor(request);
    const input = parseInput(resendNonOpenersSchema, request.body ?? {});
    return reply
      .status(201)
      .send(await resendToNonOpeners(db, actor.accountId, idParam(request.params, 'campaign'), input));
  });
  app.post('/api/campaigns/:id/schedule', async (request) => {
    const actor = await requireActor(request);
    const { scheduledAt } = parseInput(campaignScheduleSchema, request.body);
    return scheduleCampaign(db, actor.accountId, idParam(request.params, 'campaign'), scheduledAt);
  });
  app.post('/api/campaigns/:id/unschedule', async (request) => {
    const actor = await requireActor(request);
    return unscheduleCampaign(db, actor.accountId, idParam(request.params, 'campaign'));
  });
  app.post('/api/campaigns/:id/preview', async (request) => {
    const actor = await requireActor(request);
    const { contactId, variant } = parseInput(campaignPreviewSchema, request.body ?? {});
    return previewCampaign(db, actor.accountId, idParam(request.params, 'campaign'), {
      contactId,
      variant,
      publicUrl,
    });
  });
  app.post('/api/campaigns/:id/test-send', async (request) => {
    const actor = await requireActor(request);
    const input = parseInput(campaignTestSendSchema, request.body);
    return sendCampaignTest(db, mailer, { causer: actor, limits: mailPolicy }, idParam(request.params, 'campaign'), {
      ...input,
      publicUrl,
    });
  });
  app.get('/api/campaigns/:id/summary', async (request) => {
    const actor = await requireActor(request);
    return summariseCampaign(db, actor.accountId, idParam(request.params, 'campaign'));
  });
  app.get('/api/public/campaigns/:id/html', async (request, reply) => {
    const { t } = parseInput(viewerQuery, request.query ?? {});
    const quota = await takeRateLimitQuota(db, `viewer:${request.ip}`, 1, PUBLIC_VIEWER_PER_MINUTE, 60, clock());
    if (!quota.allowed) {
      throw new AppError('too_many_requests', ERROR_TEXT.campaigns.viewerRateLimited, {
        retryAfterSeconds: quota.retryAfterSeconds,
      });
    }
    const result = await renderPublicCampaign(db, idParam(request.params, 'campaign'), publicUrl, t);
    // A recipient's own view carries their name and unsubscribe token: never stored by a cache. The generic view
    // may be, briefly (a scheduled campaign can still change).
    reply.header('cache-control', result.personalised ? 'private, no-store' : 'public, max-age=60');
    return result;
  });
}
