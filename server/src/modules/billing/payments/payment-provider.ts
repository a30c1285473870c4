import type { ProviderPayment } from '../credit-topup';

/** What a provider adapter needs from an incoming webhook request. */
export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  params?: Record<string, unknown>;
  body: unknown;
}

/** A dynamic charge to create: our txid, the exact amount (whole cents), how long it may be paid. */
export interface ChargeRequest {
  txid: string;
  amountMillis: number;
  expiresInSeconds: number;
  /** Shown to the payer by their bank ("solicitacaoPagador" / description), ≤ 140 characters. */
  description: string;
  /** The payer's e-mail (Mercado Pago requires one). */
  payerEmail: string | null;
}

export interface CreatedCharge {
  /** The charge id at the provider (the cob txid; Mercado Pago's payment id). */
  chargeId: string;
  /** The "copia e cola" the payer's bank reads (a dynamic BR Code). */
  brCode: string;
}

/** A charge as the provider reports it now. */
export interface ChargeState {
  /** active: can still be paid; paid: at least one payment; expired/removed: can no longer be paid. */
  status: 'active' | 'paid' | 'expired' | 'removed';
  /** Payments received for the charge (a Pix API cob lists each `pix`). */
  payments: ProviderPayment[];
}

export interface RefundRequest {
  /** The charge and the payment being refunded. */
  chargeId: string;
  paymentId: string;
  /** Our id for this refund ([A-Za-z0-9]{1,35}): the devolução id, or Mercado Pago's idempotency key. */
  refundCode: string;
  amountMillis: number;
  description: string;
}

export interface RefundResult {
  /** done / processing: the money is on its way back; failed: the provider refused (say why). */
  status: 'done' | 'processing' | 'failed';
  providerRefundId: string | null;
  failureReason?: string | null;
}

/**
 * A Pix payment provider (ADR 0013). verifyWebhook authenticates a notification and returns the payments it
 * is about — re-read from the provider's API, never trusted from the body alone — (empty for notifications not
 * about a payment); it throws AppError (401) when the notification is not authentic.
 */
export interface PaymentProvider {
  readonly name: 'pix-api' | 'mercadopago';
  createCharge(request: ChargeRequest): Promise<CreatedCharge>;
  readCharge(charge: { chargeId: string; txid: string }): Promise<ChargeState>;
  verifyWebhook(request: WebhookRequest): Promise<ProviderPayment[]>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /**
   * The refund as the provider knows it now (status of a refund already requested), or null when the provider
   * has no refund with that id — then it is safe to ask for it (again).
   */
  readRefund(request: RefundRequest & { providerRefundId: string | null }): Promise<RefundResult | null>;
}

/** A provider answered something we cannot use (HTTP error, malformed JSON): the caller retries later. */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}
