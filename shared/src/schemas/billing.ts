import { z } from 'zod';
import { validationText } from '../validation-texts';

/** A real calendar day as AAAA-MM-DD ("2024-02-30" is refused here, not by the database as a 500). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, validationText('dateFormat'))
  // Year 0000 does not exist in PostgreSQL's calendar (it answered a 500); nothing in Carteiro is older than 1900.
  .refine((v) => v >= '1900', validationText('yearFrom1900'))
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, validationText('dateNonexistent'));
const millis = z.number().int(validationText('millisInteger'));

/**
 * The largest single top-up (R$ 100.000,00): a Pix charge is a promise to credit whatever arrives, so an absurd
 * amount typed or scripted (a balance pushed toward 2^53 millis answered 500) never becomes a charge; far above
 * what a small sender spends in months. Larger deposits go through the operator (an adjustment, audited).
 */
export const MAX_TOPUP_MILLIS = 100_000_000;

/** POST /api/billing/topups */
export const createTopupSchema = z.object({
  amountMillis: millis.positive(validationText('amountPositive')).max(MAX_TOPUP_MILLIS, validationText('topupMax')),
});
export type CreateTopupInput = z.infer<typeof createTopupSchema>;

const periodFields = { from: isoDate.optional(), to: isoDate.optional() };
const periodInOrder = (p: { from?: string; to?: string }) => !p.from || !p.to || p.from <= p.to;
const periodOrderIssue = { message: validationText('periodOrder'), path: ['to'] };

/** GET /api/billing/statement.csv (dates inclusive, America/Sao_Paulo). */
export const statementPeriodSchema = z.object(periodFields).refine(periodInOrder, periodOrderIssue);

/** GET /api/billing/statement: the period plus the page (cursor = the previous page's nextCursor). */
export const statementQuerySchema = z
  .strictObject({
    ...periodFields,
    cursor: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine(periodInOrder, periodOrderIssue);
export type StatementQuery = z.infer<typeof statementQuerySchema>;

/**
 * The most one operator adjustment moves (R$ 1.000.000) and the most a balance may hold (R$ 1 bilhão): far above
 * any small sender, far below 2^53 millis, so a balance is always an exact JavaScript number.
 */
export const MAX_ADJUSTMENT_MILLIS = 1_000_000_000;
export const MAX_BALANCE_MILLIS = 1_000_000_000_000;

/** POST /api/admin/accounts/:id/adjustments — signed amount, mandatory reason. */
export const adminAdjustmentSchema = z.object({
  amountMillis: millis
    .refine((v) => v !== 0, validationText('amountNonzero'))
    .refine((v) => Math.abs(v) <= MAX_ADJUSTMENT_MILLIS, validationText('adjustmentMax')),
  reason: z.string().trim().min(3, validationText('adjustmentReasonRequired')).max(500),
});

/** PUT /api/admin/accounts/:id/price */
export const adminPriceSchema = z.object({
  priceMillis: z.number().int().min(0).max(1_000),
  reason: z.string().trim().max(500).optional(),
});

/** POST /api/admin/accounts/:id/suspend and /reactivate */
export const adminStatusSchema = z.object({
  reason: z.string().trim().min(3, validationText('reasonRequired')).max(500),
});

/** POST /api/admin/topups/:id/confirm */
export const adminConfirmTopupSchema = z.object({ reason: z.string().trim().max(500).optional() });

/** POST /api/admin/topups/:id/refunds — whole or part of a paid top-up, through its provider. */
export const adminRefundTopupSchema = z.object({
  amountMillis: millis
    .positive(validationText('amountPositive'))
    .refine((v) => v % 10 === 0, validationText('refundWholeCents')),
  reason: z.string().trim().min(3, validationText('refundReasonRequired')).max(140, validationText('reasonMax140')),
  /** A uuid the client makes once per refund dialog: a repeated click returns the first refund. */
  requestKey: z.uuid(validationText('orderKeyInvalid')),
});
export type AdminRefundTopupInput = z.infer<typeof adminRefundTopupSchema>;

/** GET /api/admin/topups?status=open|paid */
export const adminTopupsQuerySchema = z.object({ status: z.enum(['open', 'paid']).default('open') });

export const LEDGER_KIND_LABELS_PT_BR = {
  topup: 'Recarga',
  reservation: 'Reserva',
  send: 'Envio',
  release: 'Liberação',
  refund: 'Estorno',
  adjustment: 'Ajuste',
} as const;
export type StatementPeriod = z.infer<typeof statementPeriodSchema>;
