import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { authUsers } from '../auth/auth.db';

export const LEDGER_ENTRY_KINDS = ['topup', 'reservation', 'send', 'release', 'refund', 'adjustment'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

export const TOPUP_STATUSES = ['pending', 'paid', 'expired', 'cancelled', 'review'] as const;
export type TopupStatus = (typeof TOPUP_STATUSES)[number];

/**
 * Pix top-ups (product.md §4 "Top-up"): one BR Code per top-up, identified by its txid; credited once, when a
 * verified provider webhook or the operator confirms the payment. `provider_payment_id` is unique so one
 * payment can never credit two top-ups (nor one top-up twice).
 */
export const topups = pgTable(
  'topups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    amountMillis: bigint('amount_millis', { mode: 'number' }).notNull(),
    txid: text('txid').notNull().unique(),
    brCode: text('br_code').notNull(),
    status: text('status', { enum: TOPUP_STATUSES }).notNull().default('pending'),
    provider: text('provider'),
    providerPaymentId: text('provider_payment_id').unique(),
    /**
     * Dynamic charges: the charge at the provider (the cob's txid on a Pix API, the payment id at
     * Mercado Pago). Null for a static BR Code confirmed by hand.
     */
    chargeProvider: text('charge_provider'),
    providerChargeId: text('provider_charge_id'),
    /** Sum of the refunds requested and not failed, in millis (never more than amount_millis). */
    refundedMillis: bigint('refunded_millis', { mode: 'number' }).notNull().default(0),
    /** Why a payment went to manual review (amount/currency mismatch, late payment…), pt-BR. */
    reviewReason: text('review_reason'),
    /** What the provider reported for the payment (amount in millis, currency, status), for the operator. */
    providerReport: jsonb('provider_report'),
    createdByUserId: text('created_by_user_id'),
    confirmedByUserId: text('confirmed_by_user_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('topups_account_id_created_at_idx').on(t.accountId, t.createdAt),
    index('topups_status_idx').on(t.status),
    check('topups_amount_positive', sql`${t.amountMillis} > 0`),
    // 1–25 for the static BR Code (field 62-05), 26–35 for a Pix API cob (BCB spec `txid`).
    check('topups_txid_format', sql`${t.txid} ~ '^[A-Za-z0-9]{1,35}$'`),
    check('topups_refunded_within_amount', sql`${t.refundedMillis} >= 0 AND ${t.refundedMillis} <= ${t.amountMillis}`),
    uniqueIndex('topups_provider_charge_unique').on(t.chargeProvider, t.providerChargeId),
  ],
);

export const TOPUP_REFUND_STATUSES = ['processing', 'done', 'failed'] as const;
export type TopupRefundStatus = (typeof TOPUP_REFUND_STATUSES)[number];

/**
 * Refunds of a paid top-up, asked by an operator and sent back through the provider. The debit is a
 * 'refund' ledger entry written with the row (one per refund: unique index on ledger_entries.refund_id); a
 * refund the provider refuses is given back by a second entry. `request_key` makes a repeated click a no-op;
 * `refund_code` is the id sent to the provider (`PUT /pix/{e2eid}/devolucao/{id}`, X-Idempotency-Key).
 */
export const topupRefunds = pgTable(
  'topup_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    topupId: uuid('topup_id')
      .notNull()
      .references(() => topups.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    requestKey: uuid('request_key').notNull().unique(),
    refundCode: text('refund_code').notNull().unique(),
    amountMillis: bigint('amount_millis', { mode: 'number' }).notNull(),
    status: text('status', { enum: TOPUP_REFUND_STATUSES }).notNull().default('processing'),
    providerRefundId: text('provider_refund_id'),
    failureReason: text('failure_reason'),
    reason: text('reason').notNull(),
    operatorUserId: text('operator_user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('topup_refunds_topup_id_idx').on(t.topupId),
    check('topup_refunds_amount_positive', sql`${t.amountMillis} > 0`),
  ],
);

/**
 * The ledger (product.md §4 "Ledger entry"): append-only, one row per change of an account's balance, in
 * integer millis (+ credit, − debit). The account's balance is always the sum of its entries: each entry is
 * written in the same transaction as the balance update (adjustAccountBalance), and `balance_after_millis`
 * is the balance that update returned. `seq` orders entries of one account in commit order (the balance
 * update holds the account row lock when the entry takes its seq).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    amountMillis: bigint('amount_millis', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: LEDGER_ENTRY_KINDS }).notNull(),
    campaignId: uuid('campaign_id'),
    topupId: uuid('topup_id').references(() => topups.id),
    /** The refund a 'refund' entry debits (or an 'adjustment' gives back when the provider refused it). */
    refundId: uuid('refund_id'),
    operatorUserId: text('operator_user_id'),
    /** E-mails covered by a reservation or a send, and the price per e-mail applied (millis). */
    emailCount: integer('email_count'),
    priceMillis: integer('price_millis'),
    description: text('description').notNull(),
    balanceAfterMillis: bigint('balance_after_millis', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    // The statement newest first (list-statement.ts); the date in the index lets a period far in the past skip the
    // newer entries inside the index instead of reading each one's row.
    index('ledger_entries_account_seq_idx').on(t.accountId, t.seq, t.createdAt),
    index('ledger_entries_account_created_at_idx').on(t.accountId, t.createdAt),
    // Idempotency, enforced by the database: one reservation, one send and one release per campaign; one
    // credit per top-up.
    uniqueIndex('ledger_entries_one_reservation_per_campaign').on(t.campaignId).where(sql`${t.kind} = 'reservation'`),
    uniqueIndex('ledger_entries_one_send_per_campaign').on(t.campaignId).where(sql`${t.kind} = 'send'`),
    uniqueIndex('ledger_entries_one_release_per_campaign').on(t.campaignId).where(sql`${t.kind} = 'release'`),
    uniqueIndex('ledger_entries_one_credit_per_topup').on(t.topupId).where(sql`${t.kind} = 'topup'`),
    uniqueIndex('ledger_entries_one_debit_per_refund').on(t.refundId).where(sql`${t.kind} = 'refund'`),
    uniqueIndex('ledger_entries_one_return_per_refund').on(t.refundId).where(sql`${t.kind} = 'adjustment'`),
    check('ledger_entries_balance_after_not_negative', sql`${t.balanceAfterMillis} >= 0`),
  ],
);

/** Every operator action (credit/debit, price, suspension, manual top-up confirmation), who, what and why. */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorUserId: text('operator_user_id').notNull(),
    operatorEmail: text('operator_email'),
    action: text('action').notNull(),
    accountId: uuid('account_id').references(() => accounts.id),
    targetId: text('target_id'),
    reason: text('reason'),
    details: jsonb('details'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_audit_log_created_at_idx').on(t.createdAt)],
);

/**
 * One row per low-balance warning sent: keyed by the debit entry that took the balance below the threshold, so
 * a crossing is announced once even when the notifier runs twice.
 */
export const lowBalanceAlerts = pgTable('low_balance_alerts', {
  ledgerEntryId: uuid('ledger_entry_id')
    .primaryKey()
    .references(() => ledgerEntries.id),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id),
  thresholdMillis: bigint('threshold_millis', { mode: 'number' }).notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Operators by role (product §5 J: "ADMIN_EMAILS or an operator role"): users granted the back office by another
 * operator (audited), on top of the addresses in ADMIN_EMAILS, which stay configuration-only.
 */
export const operatorRoles = pgTable('operator_roles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => authUsers.id, { onDelete: 'cascade' }),
  grantedByUserId: text('granted_by_user_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Users an operator blocked (spec §8 `user-disabled`): they cannot start a session — password, magic link,
 * e-mail verification or Google — and their sessions were revoked when blocked. Removing the row unblocks.
 */
export const disabledUsers = pgTable('disabled_users', {
  userId: text('user_id')
    .primaryKey()
    .references(() => authUsers.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull(),
  disabledByUserId: text('disabled_by_user_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
