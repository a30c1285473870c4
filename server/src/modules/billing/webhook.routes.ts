import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { applyProviderPayment } from './credit-topup';
import type { PaymentProvider } from './payments/payment-provider';

/**
 * Payment-provider webhooks (no session, no CSRF: authenticated by the provider's signature). Answers 200 once
 * the notification is handled (credited, duplicate, review, ignored) so the provider stops retrying; 401 when
 * the signature does not hold; 404 when the provider is not configured.
 */
export async function paymentWebhookRoutes(
  app: FastifyInstance,
  opts: { db: Db; mercadoPago: PaymentProvider | null },
): Promise<void> {
  app.post('/api/webhooks/mercadopago', { config: { csrf: false } }, async (request) => {
    const provider = opts.mercadoPago;
    if (!provider) throw new AppError('not_found', 'Webhook do Mercado Pago não configurado.');
    const payment = await provider.verifyWebhook({
      headers: request.headers,
      query: request.query as Record<string, unknown>,
      body: request.body,
    });
    if (!payment) return { received: true, outcome: 'ignored' };
    const result = await applyProviderPayment(opts.db, payment);
    const log = { provider: provider.name, paymentId: payment.paymentId, txid: payment.txid, outcome: result.outcome };
    if (result.outcome === 'review' || result.outcome === 'unmatched') {
      request.log.warn({ ...log, reason: result.reason }, 'payment needs manual review');
    } else {
      request.log.info(log, 'payment webhook handled');
    }
    return { received: true, outcome: result.outcome };
  });
}
