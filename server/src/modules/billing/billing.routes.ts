import {
  type AdminAccount,
  type AdminMember,
  type AdminTopup,
  type AuditEntry,
  adminAdjustmentSchema,
  adminConfirmTopupSchema,
  adminPriceSchema,
  adminRefundTopupSchema,
  adminStatusSchema,
  adminTopupsQuerySchema,
  type BalanceDto,
  createTopupSchema,
  emailsPaidBy,
  formatBRL,
  type LedgerEntryDto,
  type OperatorEntry,
  type StatementDto,
  statementPeriodSchema,
  statementQuerySchema,
  type TopupDto,
  type TopupReceipt,
  type TopupRefundResult,
  type TopupSummary,
} from '@carteiro/shared';
import { desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Clock, systemClock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { parseInput } from '../../http/validate';
import type { Mailer } from '../../mail/mailer';
import { findBillingAccount } from '../accounts/account-balance';
import { findAccount } from '../accounts/accounts.service';
import { requireActor, requireOperator, requireRole } from '../auth/request-actor';
import { adjustBalanceByOperator } from './adjust-balance';
import { topups } from './billing.db';
import { brCodeQrSvgDataUrl, createTopup, findTopup } from './create-topup';
import { applyProviderPayment, confirmTopupManually, type Topup } from './credit-topup';
import type { LedgerEntry } from './ledger';
import { listStatementLines, type StatementLine } from './list-statement';
import { listAccountsForOperator, listAdminAuditLog, setNegotiatedPrice } from './manage-account';
import { notifyLowBalanceIfCrossed } from './notify-low-balance';
import { grantOperatorRole, listOperators, revokeOperatorRole } from './operators';
import type { PaymentProviders } from './payments/providers';
import { refundTopup } from './refund-topup';
import { statementToCsv } from './statement-csv';
import { disableUser, enableUser, listAccountMembersForOperator } from './user-access';

const idParams = z.object({ id: z.uuid('Identificador inválido.') });
const CSV_MAX_ROWS = 100_000;
const operatorParams = z.object({ userId: z.string().min(1).max(200) });
const grantOperatorBody = z.object({
  email: z.email('Informe um e-mail válido.'),
  reason: z.string().trim().min(3, 'Informe o motivo.').max(500),
});

export function toLedgerEntryDto(e: LedgerEntry): LedgerEntryDto {
  return {
    id: e.id,
    seq: e.seq,
    kind: e.kind,
    amountMillis: e.amountMillis,
    balanceAfterMillis: e.balanceAfterMillis,
    description: e.description,
    campaignId: e.campaignId,
    topupId: e.topupId,
    emailCount: e.emailCount,
    priceMillis: e.priceMillis,
    createdAt: e.createdAt.toISOString(),
  };
}

/** An extrato line of the dashboard: the entry's fields and, on a campaign's line, the campaign's name. */
function toStatementLineDto(line: StatementLine): LedgerEntryDto {
  return { ...toLedgerEntryDto(line), campaignName: line.campaignName };
}

async function toTopupDto(t: Topup, canSimulate: boolean): Promise<TopupDto> {
  return {
    id: t.id,
    txid: t.txid,
    amountMillis: t.amountMillis,
    status: t.status,
    brCode: t.brCode,
    qrSvgDataUrl: await brCodeQrSvgDataUrl(t.brCode),
    mode: t.chargeProvider ? 'dynamic' : 'static',
    canSimulatePayment: canSimulate && t.status === 'pending',
    refundedMillis: t.refundedMillis,
    expiresAt: t.expiresAt.toISOString(),
    paidAt: t.paidAt?.toISOString() ?? null,
    createdAt: t.createdAt.toISOString(),
  };
}

/** "Meu saldo", extrato, Pix top-ups and the operator back office's billing actions. */
export async function billingRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    config: Config;
    mailer: Mailer;
    payments: PaymentProviders;
    /** The clock a top-up's charge expiry is counted from (default: the system's). */
    clock?: Clock;
  },
): Promise<void> {
  const { db, config, mailer, payments, clock = systemClock } = opts;
  // "Simular pagamento": development and tests only, never in production.
  const canSimulate = !config.isProduction;
  const pix = { key: config.PIX_KEY, merchantName: config.PIX_MERCHANT_NAME, merchantCity: config.PIX_MERCHANT_CITY };
  const rules = { minMillis: config.TOPUP_MIN_MILLIS, expiryMinutes: config.TOPUP_EXPIRY_MINUTES };
  const lowBalance = { db, mailer, thresholdMillis: config.LOW_BALANCE_THRESHOLD_MILLIS, publicUrl: config.PUBLIC_URL };

  // Every member sees the balance (they need it to know whether a campaign can go out).
  app.get('/api/billing/balance', async (request): Promise<BalanceDto> => {
    const actor = await requireActor(request);
    const account = await findBillingAccount(db, actor.accountId);
    if (!account) throw notFound('account');
    return {
      balanceMillis: account.balanceMillis,
      priceMillis: account.priceMillis,
      emailsPaid: emailsPaidBy(account.balanceMillis, account.priceMillis),
      formatted: formatBRL(account.balanceMillis),
      lowBalance: account.balanceMillis < config.LOW_BALANCE_THRESHOLD_MILLIS,
      lowBalanceThresholdMillis: config.LOW_BALANCE_THRESHOLD_MILLIS,
    };
  });

  app.get('/api/billing/statement', async (request): Promise<StatementDto> => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const query = parseInput(statementQuerySchema, request.query);
    const page = await listStatementLines(db, { accountId: actor.accountId, ...query });
    return { entries: page.entries.map(toStatementLineDto), nextCursor: page.nextCursor };
  });

  app.get('/api/billing/statement.csv', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const query = parseInput(statementPeriodSchema, request.query);
    const page = await listStatementLines(db, { accountId: actor.accountId, ...query, limit: CSV_MAX_ROWS });
    const name = `extrato-carteiro${query.from ? `-${query.from}` : ''}${query.to ? `-a-${query.to}` : ''}.csv`;
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(statementToCsv(page.entries));
  });

  app.post('/api/billing/topups', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const input = parseInput(createTopupSchema, request.body);
    const topup = await createTopup(
      db,
      { ...input, accountId: actor.accountId, userId: actor.userId, payerEmail: actor.email },
      pix,
      rules,
      clock(),
      payments.active,
    );
    return reply.status(201).send(await toTopupDto(topup, canSimulate));
  });

  app.get('/api/billing/topups', async (request): Promise<{ topups: TopupSummary[] }> => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const rows = await db
      .select()
      .from(topups)
      .where(eq(topups.accountId, actor.accountId))
      .orderBy(desc(topups.createdAt))
      .limit(50);
    return {
      topups: rows.map((t) => ({
        id: t.id,
        txid: t.txid,
        amountMillis: t.amountMillis,
        status: t.status,
        expiresAt: t.expiresAt.toISOString(),
        paidAt: t.paidAt?.toISOString() ?? null,
        createdAt: t.createdAt.toISOString(),
      })),
    };
  });

  app.get('/api/billing/topups/:id', async (request): Promise<TopupDto> => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const { id } = parseInput(idParams, request.params);
    const topup = await findTopup(db, actor.accountId, id);
    if (!topup) throw notFound('topup');
    return toTopupDto(topup, canSimulate);
  });

  if (canSimulate) {
    // Development only: pays the top-up as a provider would (same verified-payment path, same ledger entry).
    app.post('/api/billing/topups/:id/simulate-payment', async (request): Promise<TopupDto> => {
      const actor = await requireActor(request);
      requireRole(actor, ['owner', 'admin']);
      const { id } = parseInput(idParams, request.params);
      const topup = await findTopup(db, actor.accountId, id);
      if (!topup) throw notFound('topup');
      if (topup.status !== 'pending') throw new AppError('conflict', ERROR_TEXT.billing.payOnlyPending);
      const result = await applyProviderPayment(db, {
        provider: 'simulacao',
        paymentId: `simulacao-${topup.id}`,
        txid: topup.txid,
        amountMillis: topup.amountMillis,
        currency: 'BRL',
        status: 'approved',
      });
      request.log.info({ topupId: topup.id, outcome: result.outcome }, 'simulated top-up payment (development)');
      const updated = await findTopup(db, actor.accountId, id);
      if (!updated) throw notFound('topup');
      return toTopupDto(updated, canSimulate);
    });
  }

  app.get('/api/billing/topups/:id/receipt', async (request): Promise<TopupReceipt> => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const { id } = parseInput(idParams, request.params);
    const topup = await findTopup(db, actor.accountId, id);
    if (!topup) throw notFound('topup');
    if (topup.status !== 'paid' || !topup.paidAt) {
      throw new AppError('conflict', ERROR_TEXT.billing.receiptNotReady);
    }
    const account = await findAccount(db, actor.accountId);
    return {
      receiptNumber: topup.txid,
      topupId: topup.id,
      amountMillis: topup.amountMillis,
      formattedAmount: formatBRL(topup.amountMillis),
      paidAt: topup.paidAt.toISOString(),
      method: 'Pix',
      provider: topup.provider,
      providerPaymentId: topup.providerPaymentId,
      payer: account
        ? { name: account.name, legalName: account.legalName, taxId: account.taxId, address: account.address }
        : null,
      payee: { name: config.PIX_MERCHANT_NAME, city: config.PIX_MERCHANT_CITY, pixKey: config.PIX_KEY },
      description: `Créditos pré-pagos para envio de e-mails (Carteiro) — ${formatBRL(topup.amountMillis)}`,
    };
  });

  // ---- Operator back office ----

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
      const { userId } = parseInput(operatorParams, request.params);
      const input = parseInput(adminStatusSchema, request.body);
      return change(db, { userId, reason: input.reason, operator });
    });
  }

  app.get('/api/admin/topups', async (request): Promise<{ topups: AdminTopup[] }> => {
    await requireOperator(request);
    const query = parseInput(adminTopupsQuerySchema, request.query ?? {});
    const rows = await db
      .select()
      .from(topups)
      .where(
        query.status === 'paid' ? eq(topups.status, 'paid') : inArray(topups.status, ['pending', 'review', 'expired']),
      )
      .orderBy(desc(topups.createdAt))
      .limit(200);
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
    const topupRow = (await db.select({ p: topups.chargeProvider }).from(topups).where(eq(topups.id, id)))[0];
    const provider =
      topupRow?.p === 'pix-api' ? payments.pixApi : topupRow?.p === 'mercadopago' ? payments.mercadoPago : null;
    const { refund, created } = await refundTopup(db, provider, { topupId: id, ...input, operator });
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
    const { userId } = parseInput(operatorParams, request.params);
    const input = parseInput(adminStatusSchema, request.body ?? {});
    return revokeOperatorRole(db, { userId, reason: input.reason, operator });
  });

  app.get('/api/admin/audit-log', async (request): Promise<{ entries: AuditEntry[] }> => {
    await requireOperator(request);
    const rows = await listAdminAuditLog(db);
    return { entries: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
  });
}
