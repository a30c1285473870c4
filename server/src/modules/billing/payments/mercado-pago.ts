import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseReaisToMillis } from '@carteiro/shared';
import { AppError } from '../../../http/app-error';
import type { ProviderPayment } from '../credit-topup';
import type { PaymentProvider, WebhookRequest } from './payment-provider';

/** Webhooks older (or further in the future) than this are refused as replays. */
export const MERCADO_PAGO_MAX_SIGNATURE_AGE_MS = 5 * 60_000;

/** The payment fields Carteiro reads from GET /v1/payments/:id. */
export interface MercadoPagoPayment {
  id: number | string;
  status: string;
  currency_id: string;
  transaction_amount: number | string;
  external_reference?: string | null;
}

export type FetchMercadoPagoPayment = (paymentId: string) => Promise<MercadoPagoPayment>;

function rejected(reason: string): AppError {
  return new AppError('forbidden', `Webhook recusado: ${reason}.`, undefined, 401);
}

/**
 * Checks Mercado Pago's `x-signature: ts=…,v1=<hex>`: HMAC-SHA256(secret, `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`)
 * compared in constant time, with ts within 5 minutes of `now`. Throws AppError (401) when it does not hold.
 */
export function verifyMercadoPagoSignature(input: {
  secret: string;
  xSignature: string | undefined;
  xRequestId: string | undefined;
  /** data.id from the query string (lower-cased when alphanumeric, as Mercado Pago signs it). */
  dataId: string | undefined;
  now?: Date;
}): void {
  if (!input.xSignature) throw rejected('sem x-signature');
  const parts = new Map(
    input.xSignature.split(',').map((part) => {
      const [k, ...v] = part.split('=');
      return [k?.trim() ?? '', v.join('=').trim()] as const;
    }),
  );
  const ts = parts.get('ts');
  const v1 = parts.get('v1');
  if (!ts || !/^\d{1,16}$/.test(ts) || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) throw rejected('x-signature malformado');
  // Mercado Pago documents ts in seconds; some deliveries carry milliseconds.
  const tsMs = ts.length > 11 ? Number(ts) : Number(ts) * 1000;
  if (Math.abs((input.now ?? new Date()).getTime() - tsMs) > MERCADO_PAGO_MAX_SIGNATURE_AGE_MS) {
    throw rejected('assinatura expirada');
  }
  let manifest = '';
  if (input.dataId) manifest += `id:${input.dataId.toLowerCase()};`;
  if (input.xRequestId) manifest += `request-id:${input.xRequestId};`;
  manifest += `ts:${ts};`;
  const expected = createHmac('sha256', input.secret).update(manifest).digest();
  const given = Buffer.from(v1, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw rejected('assinatura inválida');
}

function header(headers: WebhookRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const STATUS_MAP: Record<string, ProviderPayment['status']> = {
  approved: 'approved',
  authorized: 'pending',
  pending: 'pending',
  in_process: 'pending',
  in_mediation: 'pending',
  rejected: 'rejected',
  cancelled: 'cancelled',
  refunded: 'refunded',
  charged_back: 'refunded',
};

/** Default payment lookup: Mercado Pago's REST API with the operator's access token. */
export function mercadoPagoApiFetcher(accessToken: string): FetchMercadoPagoPayment {
  return async (paymentId) => {
    const response = await fetch(`https://api.mercadopago.com/v1/payments/${encodeURIComponent(paymentId)}`, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new AppError('service_unavailable', `Mercado Pago respondeu ${response.status}.`);
    return (await response.json()) as MercadoPagoPayment;
  };
}

/**
 * The Mercado Pago adapter: verifies the signature over the documented manifest, then re-queries the payment
 * (amount, currency, status, external_reference = our txid). Non-payment topics answer null.
 */
export function createMercadoPagoProvider(options: {
  secret: string;
  fetchPayment: FetchMercadoPagoPayment;
  now?: () => Date;
}): PaymentProvider {
  return {
    name: 'mercadopago',
    async verifyWebhook(request) {
      const dataIdRaw = request.query['data.id'] ?? (request.query.data as { id?: unknown } | undefined)?.id;
      const dataId = typeof dataIdRaw === 'string' || typeof dataIdRaw === 'number' ? String(dataIdRaw) : undefined;
      verifyMercadoPagoSignature({
        secret: options.secret,
        xSignature: header(request.headers, 'x-signature'),
        xRequestId: header(request.headers, 'x-request-id'),
        dataId,
        now: options.now?.(),
      });
      const topic = request.query.type ?? request.query.topic ?? (request.body as { type?: unknown } | null)?.type;
      if (topic !== 'payment' || !dataId) return null;
      const payment = await options.fetchPayment(dataId);
      if (String(payment.id) !== dataId) throw rejected('pagamento consultado não confere');
      // transaction_amount comes as a JSON number in reais; read its decimal text, never multiply a float.
      const amountMillis = parseReaisToMillis(String(payment.transaction_amount));
      if (amountMillis === null) throw new AppError('bad_request', 'Valor do pagamento ilegível.');
      return {
        provider: 'mercadopago',
        paymentId: dataId,
        txid: payment.external_reference ?? null,
        amountMillis,
        currency: payment.currency_id,
        status: STATUS_MAP[payment.status] ?? 'unknown',
      };
    },
  };
}
