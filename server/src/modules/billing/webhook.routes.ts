import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { PaymentProvider } from './payments/payment-provider';
import { ProviderError } from './payments/payment-provider';
import { applyProviderPayments } from './reconcile-topups';

/**
 * Payment-provider webhooks (no session, no CSRF: authenticated by the provider's signature or the secret
 * webhook address, and every payment re-read from the provider's API). Answers 200 once the notification is
 * handled (credited, duplicate, review, ignored) so the provider stops retrying; 401 when not authentic; 404 when
 * the provider is not configured; 503 when the provider's API cannot be read (the provider retries, and the
 * reconciliation would find the payment anyway).
 */
export async function paymentWebhookRoutes(
  app: FastifyInstance,
  opts: { db: Db; mercadoPago: PaymentProvider | null; pixApi: PaymentProvider | null },
): Promise<void> {
  async function handle(request: FastifyRequest, provider: PaymentProvider | null, label: string) {
    if (!provider) throw new AppError('not_found', `Webhook ${label} não configurado.`);
    let payments: Awaited<ReturnType<PaymentProvider['verifyWebhook']>>;
    try {
      payments = await provider.verifyWebhook({
        headers: request.headers,
        query: request.query as Record<string, unknown>,
        params: request.params as Record<string, unknown>,
        body: request.body,
      });
    } catch (error) {
      if (error instanceof ProviderError) {
        request.log.warn({ provider: provider.name, err: error.message }, 'payment webhook: provider API unreadable');
        throw new AppError('service_unavailable');
      }
      throw error;
    }
    if (payments.length === 0) return { received: true, outcome: 'ignored', outcomes: [] };
    const results = await applyProviderPayments(opts.db, payments);
    results.forEach((result, i) => {
      const payment = payments[i];
      const log = {
        provider: provider.name,
        paymentId: payment?.paymentId,
        txid: payment?.txid,
        outcome: result.outcome,
      };
      if (result.outcome === 'review' || result.outcome === 'unmatched') {
        request.log.warn({ ...log, reason: result.reason }, 'payment needs manual review');
      } else {
        request.log.info(log, 'payment webhook handled');
      }
    });
    const outcomes = results.map((r) => r.outcome);
    return { received: true, outcome: outcomes[0], outcomes };
  }

  app.post('/api/webhooks/mercadopago', { config: { csrf: false } }, (request) =>
    handle(request, opts.mercadoPago, 'do Mercado Pago'),
  );
  // The BCB Pix API calls {webhookUrl}/pix; the webhook URL registered at the PSP carries a secret token.
  app.post('/api/webhooks/pix-api/:token/pix', { config: { csrf: false } }, (request) =>
    handle(request, opts.pixApi, 'da API Pix'),
  );
}
