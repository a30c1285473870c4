import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { requireActor } from '../auth/request-actor';
import {
  campaignRecipients,
  campaignReport,
  campaignReportCsv,
  contactActivity,
  dashboardStats,
  reportCsvFileName,
} from './reports';

/** Reports, all scoped to the actor's account (another account's campaign or contact → 404). */
export async function reportsRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  app.get<{ Params: { id: string } }>('/api/campaigns/:id/report', async (request) => {
    const actor = await requireActor(request);
    return campaignReport(db, actor.accountId, request.params.id);
  });
  app.get<{ Params: { id: string }; Querystring: { search?: string; cursor?: string; limit?: string } }>(
    '/api/campaigns/:id/recipients',
    async (request) => {
      const actor = await requireActor(request);
      const cursor = Number(request.query.cursor);
      const limit = Number(request.query.limit);
      return campaignRecipients(db, actor.accountId, request.params.id, {
        search: typeof request.query.search === 'string' ? request.query.search.slice(0, 200) : undefined,
        cursor: Number.isSafeInteger(cursor) && cursor > 0 ? cursor : undefined,
        limit: Number.isSafeInteger(limit) && limit > 0 ? Math.min(limit, 200) : 50,
      });
    },
  );
  app.get<{ Params: { id: string } }>('/api/campaigns/:id/report.csv', async (request, reply) => {
    const actor = await requireActor(request);
    const { name, rows } = await campaignReportCsv(db, actor.accountId, request.params.id);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${reportCsvFileName(name)}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(rows));
  });
  app.get<{ Params: { id: string } }>('/api/contacts/:id/activity', async (request) => {
    const actor = await requireActor(request);
    return contactActivity(db, actor.accountId, request.params.id);
  });
  app.get('/api/dashboard/stats', async (request) => {
    const actor = await requireActor(request);
    return dashboardStats(db, actor.accountId);
  });
}
