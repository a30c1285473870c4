import {
  type BalanceDto,
  createTopupSchema,
  emailsPaidBy,
  formatBRL,
  type LedgerEntryDto,
  type StatementDto,
  statementPeriodSchema,
  statementQuerySchema,
  type TopupDto,
  type TopupReceipt,
  type TopupSummary,
  validationText,
} from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Clock, systemClock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { parseInput } from '../../http/validate';
import { findBillingAccount } from '../accounts/account-balance';
import { findAccount } from '../accounts/accounts.service';
import { requireActor, requireRole } from '../auth/request-actor';
import { brCodeQrSvgDataUrl, createTopup, findTopup } from './create-topup';
import { applyProviderPayment, type Topup } from './credit-topup';
import { toLedgerEntryDto } from './ledger';
import { listStatementLines, type StatementLine } from './list-statement';
import { listAccountTopups } from './list-topups';
import type { PaymentProviders } from './payments/providers';
import { statementToCsv } from './statement-csv';

const idParams = z.object({ id: z.uuid(validationText('idInvalid')) });
const CSV_MAX_ROWS = 100_000;

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

/** "Meu saldo", extrato and Pix top-ups: the account's side of billing (the operator's is in back-office). */
export async function billingRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    config: Config;
    payments: PaymentProviders;
    /** The clock a top-up's charge expiry is counted from (default: the system's). */
    clock?: Clock;
  },
): Promise<void> {
  const { db, config, payments, clock = systemClock } = opts;
  // "Simular pagamento": development and tests only, never in production.
  const canSimulate = !config.isProduction;
  const pix = { key: config.PIX_KEY, merchantName: config.PIX_MERCHANT_NAME, merchantCity: config.PIX_MERCHANT_CITY };
  const rules = { minMillis: config.TOPUP_MIN_MILLIS, expiryMinutes: config.TOPUP_EXPIRY_MINUTES };

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
    const rows = await listAccountTopups(db, actor.accountId);
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
}
