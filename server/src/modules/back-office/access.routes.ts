import {
  type AdminMember,
  type AuditEntry,
  adminStatusSchema,
  type OperatorEntry,
  validationText,
} from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { parseInput } from '../../http/validate';
import { requireOperator } from '../auth/request-actor';
import { listAdminAuditLog } from '../billing/manage-account';
import { grantOperatorRole, listOperators, revokeOperatorRole } from '../billing/operators';
import { disableUser, enableUser, listAccountMembersForOperator } from '../billing/user-access';
import { idParams, userIdParams } from './admin-params';

const grantOperatorBody = z.object({
  email: z.email(validationText('emailValidRequired')),
  reason: z.string().trim().min(3, validationText('reasonRequired')).max(500),
});

/**
 * Who may do what: an account's members and blocking one of them, the operators (from ADMIN_EMAILS or granted
 * here) and the audit log of every operator action. Billing keeps the roles, blocks and log; these routes check
 * the operator and shape the answer.
 */
export async function operatorAccessRoutes(app: FastifyInstance, opts: { db: Db; config: Config }): Promise<void> {
  const { db, config } = opts;

  app.get('/api/admin/accounts/:id/members', async (request): Promise<{ members: AdminMember[] }> => {
    await requireOperator(request);
    const { id } = parseInput(idParams, request.params);
    const rows = await listAccountMembersForOperator(db, id);
    return { members: rows.map((r) => ({ ...r, disabledAt: r.disabledAt?.toISOString() ?? null })) };
  });

  for (const [path, change] of [
    ['disable', disableUser],
    ['enable', enableUser],
  ] as const) {
    app.post(`/api/admin/users/:userId/${path}`, async (request) => {
      const operator = await requireOperator(request);
      const { userId } = parseInput(userIdParams, request.params);
      const input = parseInput(adminStatusSchema, request.body);
      return change(db, { userId, reason: input.reason, operator });
    });
  }

  app.get('/api/admin/operators', async (request): Promise<{ operators: OperatorEntry[] }> => {
    await requireOperator(request);
    const rows = await listOperators(db, config.ADMIN_EMAILS);
    return { operators: rows.map((r) => ({ ...r, grantedAt: r.grantedAt?.toISOString() ?? null })) };
  });

  app.post('/api/admin/operators', async (request, reply) => {
    const operator = await requireOperator(request);
    const input = parseInput(grantOperatorBody, request.body);
    const result = await grantOperatorRole(db, { ...input, operator });
    return reply.status(result.created ? 201 : 200).send(result);
  });

  app.delete('/api/admin/operators/:userId', async (request) => {
    const operator = await requireOperator(request);
    const { userId } = parseInput(userIdParams, request.params);
    const input = parseInput(adminStatusSchema, request.body ?? {});
    return revokeOperatorRole(db, { userId, reason: input.reason, operator });
  });

  app.get('/api/admin/audit-log', async (request): Promise<{ entries: AuditEntry[] }> => {
    await requireOperator(request);
    const rows = await listAdminAuditLog(db);
    return { entries: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
  });
}
