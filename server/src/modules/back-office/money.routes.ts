import {
  type AdminAccount,
  type AdminTopup,
  adminAdjustmentSchema,
  adminConfirmTopupSchema,
  adminPriceSchema,
  adminRefundTopupSchema,
  adminTopupsQuerySchema,
  type TopupRefundResult,
} from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { parseInput } from '../../http/validate';
import type { Mailer } from '../../mail/mailer';
import { requireOperator } from '../auth/request-actor';
import { adjustBalanceByOperator } from '../billing/adjust-balance';
import { confirmTopupManually } from '../billing/credit-topup';
import { toLedgerEntryDto } from '../billing/ledger';
import { listTopupsForOperator } from '../billing/list-topups';
import { listAccountsForOperator, setNegotiatedPrice } from '../billing/manage-account';
import { notifyLowBalanceIfCrossed } from '../billing/notify-low-balance';
import type { PaymentProviders } from '../billing/payments/providers';
import { refundTopup } from '../billing/refund-topup';
import { idParams } from './admin-params';

/**
 * The operator's money actions: the accounts with their balances, manual credits and debits, negotiated prices,
 * the top-ups to review, manual confirmation and refunds. Each is one billing function (billing writes its
 * tables and the audit entry); these routes check the operator and shape the answer.
 */
export async function operatorMoneyRoutes(
  app: FastifyInstance,
  opts: { db: Db; config: Config; mailer: Mailer; payments: PaymentProviders },
): Promise<void> {
  const { db, config, mailer, payments } = opts;
  const lowBalance = { db, mailer, thresholdMillis: config.LOW_BALANCE_THRESHOLD_MILLIS, publicUrl: config.PUBLIC_URL };

  app.get('/api/admin/accounts', async (request): Promise<{ accounts: AdminAccount[] }> => {
    await requireOperator(request);
    const rows = await listAccountsForOperator(db);
    return { accounts: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
  });

  app.post('/api/admin/accounts/:id/adjustments', async (request, reply) => {
    const operator = await requireOperator(request);
    const { id } = parseInput(idParams, request.params);
    const input = parseInput(adminAdjustmentSchema, request.body);
    const entry = await adjustBalanceByOperator(db, { accountId: id, ...input, operator });
    await notifyLowBalanceIfCrossed(lowBalance, entry).catch((error: unknown) => {
      request.log.warn({ err: error, accountId: id }, 'low-balance warning could not be sent');
    });
    return reply.status(201).send(toLedgerEntryDto(entry));
  });

  app.put('/api/admin/accounts/:id/price', async (request) => {
    const operator = await requireOperator(request);
    const { id } = parseInput(idParams, request.params);
    const input = parseInput(adminPriceSchema, request.body);
    await setNegotiatedPrice(db, { accountId: id, ...input, operator });
    return { ok: true };
  });

  app.get('/api/admin/topups', async (request): Promise<{ topups: AdminTopup[] }> => {
    await requireOperator(request);
    const query = parseInput(adminTopupsQuerySchema, request.query ?? {});
    const rows = await listTopupsForOperator(db, query.status);
    return {
      topups: rows.map((t) => ({
        id: t.id,
        accountId: t.accountId,
        txid: t.txid,
        amountMillis: t.amountMillis,
        status: t.status,
        reviewReason: t.reviewReason,
        providerPaymentId: t.providerPaymentId,
        providerReport: t.providerReport,
        chargeProvider: t.chargeProvider,
        refundedMillis: t.refundedMillis,
        paidAt: t.paidAt?.toISOString() ?? null,
        expiresAt: t.expiresAt.toISOString(),
        createdAt: t.createdAt.toISOString(),
      })),
    };
  });

  app.post('/api/admin/topups/:id/confirm', async (request) => {
    const operator = await requireOperator(request);
    const { id } = parseInput(idParams, request.params);
    const input = parseInput(adminConfirmTopupSchema, request.body ?? {});
    const topup = await confirmTopupManually(db, { topupId: id, operator, reason: input.reason ?? null });
    return { id: topup.id, status: topup.status, paidAt: topup.paidAt?.toISOString() ?? null };
  });

  app.post('/api/admin/topups/:id/refunds', async (request, reply) => {
    const operator = await requireOperator(request);
    const { id } = parseInput(idParams, request.params);
    const input = parseInput(adminRefundTopupSchema, request.body);
    const { refund, created } = await refundTopup(db, payments, { topupId: id, ...input, operator });
    const result: TopupRefundResult = {
      id: refund.id,
      topupId: refund.topupId,
      amountMillis: refund.amountMillis,
      status: refund.status,
      failureReason: refund.failureReason,
      createdAt: refund.createdAt.toISOString(),
    };
    return reply.status(created ? 201 : 200).send(result);
  });
}
