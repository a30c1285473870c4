import type { ProviderPayment } from '../credit-topup';

/** What a provider adapter needs from an incoming webhook request. */
export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * A Pix payment provider. verifyWebhook authenticates the notification (signature, freshness) and returns the
 * payment as the provider reports it — re-queried from the provider, never trusted from the body alone — or
 * null for notifications that are not about a payment. Throws AppError when the webhook is not authentic.
 */
export interface PaymentProvider {
  readonly name: string;
  verifyWebhook(request: WebhookRequest): Promise<ProviderPayment | null>;
}
