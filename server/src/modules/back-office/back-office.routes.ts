import { type AccountStatusChange, adminStatusSchema, type CampaignAlert, validationText } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { parseInput } from '../../http/validate';
import type { Mailer } from '../../mail/mailer';
import { requireOperator } from '../auth/request-actor';
import type { PaymentProviders } from '../billing/payments/providers';
import { operatorAccessRoutes } from './access.routes';
import { setAccountStatus } from './account-suspension';
import { idParams } from './admin-params';
import { acknowledgeCampaignAlert, listCampaignAlertsForOperator } from './campaign-alerts';
import { operatorMoneyRoutes } from './money.routes';

const alertIdParams = z.object({ id: z.coerce.number().int().positive(validationText('idInvalid')) });
const alertsQuery = z.object({ all: z.enum(['0', '1']).optional() });
const alertReviewBody = z.object({
  note: z.string().trim().max(500, validationText('noteMax500')).optional(),
});

/**
 * The operator's back office, every /api/admin route but the sender domains' (sender-identities'): suspending an account
 * (its sending campaigns pause) and reviewing the campaigns the bounce protections paused here; the money actions
 * (money.routes.ts) and who may do what (access.routes.ts) beside. Above billing, campaigns and bounces, which it
 * calls: billing stays the one writer of balances, top-ups, roles, blocks and the audit log.
 */
export async function backOfficeRoutes(
  app: FastifyInstance,
  opts: { db: Db; config: Config; mailer: Mailer; payments: PaymentProviders },
): Promise<void> {
  const { db } = opts;
  await operatorMoneyRoutes(app, opts);
  await operatorAccessRoutes(app, opts);

  for (const [path, status] of [
    ['suspend', 'suspended'],
    ['reactivate', 'active'],
  ] as const) {
    app.post(`/api/admin/accounts/:id/${path}`, async (request): Promise<AccountStatusChange> => {
      const operator = await requireOperator(request);
      const { id } = parseInput(idParams, request.params);
      const input = parseInput(adminStatusSchema, request.body);
      const result = await setAccountStatus(db, { accountId: id, status, reason: input.reason, operator });
      return { ok: true, status, changed: result.changed, pausedCampaignIds: result.pausedCampaignIds };
    });
  }

  app.get('/api/admin/campaign-alerts', async (request): Promise<{ alerts: CampaignAlert[] }> => {
    await requireOperator(request);
    const query = parseInput(alertsQuery, request.query ?? {});
    const rows = await listCampaignAlertsForOperator(db, { includeReviewed: query.all === '1' });
    return {
      alerts: rows.map((r) => ({
        ...r,
        createdAt: r.createdAt.toISOString(),
        acknowledgedAt: r.acknowledgedAt?.toISOString() ?? null,
      })),
    };
  });

  app.post('/api/admin/campaign-alerts/:id/review', async (request) => {
    const operator = await requireOperator(request);
    const { id } = parseInput(alertIdParams, request.params);
    const input = parseInput(alertReviewBody, request.body ?? {});
    const result = await acknowledgeCampaignAlert(db, { alertId: id, operator, note: input.note ?? null });
    return { id, acknowledgedAt: result.acknowledgedAt.toISOString(), changed: result.changed };
  });
}
