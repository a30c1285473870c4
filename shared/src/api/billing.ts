import type { LEDGER_KIND_LABELS_PT_BR } from '../schemas/billing';

/** Balance, extrato and Pix top-up responses: the shapes the server answers and the web reads. */

export type TopupStatus = 'pending' | 'paid' | 'expired' | 'cancelled' | 'review';

export interface BalanceDto {
  balanceMillis: number;
  priceMillis: number;
  emailsPaid: number;
  formatted: string;
  lowBalance: boolean;
  lowBalanceThresholdMillis: number;
}

export interface LedgerEntryDto {
  id: string;
  seq: number;
  kind: keyof typeof LEDGER_KIND_LABELS_PT_BR;
  amountMillis: number;
  balanceAfterMillis: number;
  description: string;
  campaignId: string | null;
  /** The campaign's name on an extrato line (a campaign's reservation, release and send are one line). */
  campaignName?: string | null;
  topupId: string | null;
  emailCount: number | null;
  priceMillis: number | null;
  createdAt: string;
}

export interface StatementDto {
  entries: LedgerEntryDto[];
  nextCursor: number | null;
}

export interface TopupDto {
  id: string;
  txid: string;
  amountMillis: number;
  status: TopupStatus;
  brCode: string;
  qrSvgDataUrl: string;
  /** dynamic: a provider charge that confirms itself; static: BR Code to the operator's key, confirmed by hand. */
  mode: 'static' | 'dynamic';
  /** Development only: the page may offer "simular pagamento". */
  canSimulatePayment: boolean;
  refundedMillis: number;
  expiresAt: string;
  paidAt: string | null;
  createdAt: string;
}

/** A top-up in the account's list (GET /api/billing/topups): without its BR Code, QR code and provider details. */
export type TopupSummary = Pick<
  TopupDto,
  'id' | 'txid' | 'amountMillis' | 'status' | 'expiresAt' | 'paidAt' | 'createdAt'
>;

/** The receipt of a paid top-up (GET /api/billing/topups/:id/receipt). */
export interface TopupReceipt {
  receiptNumber: string;
  topupId: string;
  amountMillis: number;
  formattedAmount: string;
  paidAt: string;
  method: string;
  provider: string | null;
  providerPaymentId: string | null;
  payer: { name: string; legalName: string | null; taxId: string | null; address: string | null } | null;
  payee: { name: string; city: string; pixKey: string };
  description: string;
}
