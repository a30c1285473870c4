import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatMillisAsProviderAmount, parseProviderAmountToMillis } from '@carteiro/shared';
import { AppError } from '../../../http/app-error';
import type { ProviderPayment } from '../credit-topup';
import { type PaymentProvider, ProviderError, type RefundResult, type WebhookRequest } from './payment-provider';

/** Webhooks older (or further in the future) than this are refused as replays. */
export const MERCADO_PAGO_MAX_SIGNATURE_AGE_MS = 5 * 60_000;

/**
 * Mercado Pago's payments API (POST/GET /v1/payments, POST /v1/payments/:id/refunds), only the fields Carteiro
 * sends or reads. `transaction_amount` is a JSON number in reais.
 */
export interface MercadoPagoCreatePayment {
  transaction_amount: number;
  payment_method_id: 'pix';
  description: string;
  external_reference: string;
  /** ISO 8601 with offset, e.g. 2025-03-10T12:30:00.000-03:00; Pix accepts 30 minutes to 30 days. */
  date_of_expiration: string;
  payer: { email: string };
  notification_url?: string;
}

export interface MercadoPagoPayment {
  id: number | string;
  status: string;
  status_detail?: string;
  currency_id: string;
  transaction_amount: number | string;
  external_reference?: string | null;
  date_of_expiration?: string | null;
  transaction_amount_refunded?: number;
  point_of_interaction?: {
    type?: string;
    transaction_data?: { qr_code?: string; qr_code_base64?: string; ticket_url?: string };
  };
}

export interface MercadoPagoRefund {
  id: number | string;
  payment_id: number | string;
  amount: number;
  status: string;
}

export type FetchMercadoPagoPayment = (paymentId: string) => Promise<MercadoPagoPayment>;

function rejected(reason: string): AppError {
  return new AppError('unauthenticated', `Webhook recusado: ${reason}.`);
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

export const MERCADO_PAGO_API_URL = 'https://api.mercadopago.com';

async function mpFetch(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new ProviderError(`Mercado Pago inacessível: ${(error as Error).message}`);
  }
  const text = await response.text();
  try {
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  } catch {
    throw new ProviderError(`Mercado Pago respondeu algo que não é JSON (HTTP ${response.status}).`, response.status);
  }
}

/** Default payment lookup: Mercado Pago's REST API with the operator's access token. */
export function mercadoPagoApiFetcher(accessToken: string, apiUrl = MERCADO_PAGO_API_URL): FetchMercadoPagoPayment {
  return async (paymentId) => {
    const { status, body } = await mpFetch(`${apiUrl}/v1/payments/${encodeURIComponent(paymentId)}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (status !== 200 || !body) throw new ProviderError(`Mercado Pago respondeu ${status}.`, status);
    return body as MercadoPagoPayment;
  };
}

function mpRefundResult(refund: MercadoPagoRefund): RefundResult {
  const status =
    refund.status === 'approved'
      ? 'done'
      : refund.status === 'rejected' || refund.status === 'cancelled'
        ? 'failed'
        : 'processing';
  return { status, providerRefundId: String(refund.id) };
}

function toProviderPayment(payment: MercadoPagoPayment): ProviderPayment {
  // transaction_amount is a JSON number in reais: read its decimal digits, never pt-BR text, never a float product.
  const amountMillis = parseProviderAmountToMillis(payment.transaction_amount);
  if (amountMillis === null) throw new ProviderError('Valor do pagamento do Mercado Pago ilegível.');
  return {
    provider: 'mercadopago',
    paymentId: String(payment.id),
    txid: payment.external_reference ?? null,
    amountMillis,
    currency: payment.currency_id,
    status: STATUS_MAP[payment.status] ?? 'unknown',
  };
}

/** ISO 8601 in Brasília time with milliseconds, as Mercado Pago's date_of_expiration expects. */
function brasiliaIso(date: Date): string {
  const shifted = new Date(date.getTime() - 3 * 3600_000);
  return `${shifted.toISOString().slice(0, 23)}-03:00`;
}

/**
 * The Mercado Pago adapter: Pix payments created with POST /v1/payments (external_reference = our txid,
 * X-Idempotency-Key = our txid), the signed webhook verified over the documented manifest then the payment
 * re-queried, refunds with POST /v1/payments/:id/refunds.
 */
export function createMercadoPagoProvider(options: {
  secret: string;
  fetchPayment: FetchMercadoPagoPayment;
  accessToken?: string;
  apiUrl?: string;
  now?: () => Date;
}): PaymentProvider {
  const apiUrl = (options.apiUrl ?? MERCADO_PAGO_API_URL).replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  const auth = () => {
    if (!options.accessToken) throw new ProviderError('MERCADO_PAGO_ACCESS_TOKEN não configurado.');
    return `Bearer ${options.accessToken}`;
  };
  return {
    name: 'mercadopago',

    async createCharge(request) {
      const body: MercadoPagoCreatePayment = {
        transaction_amount: Number(formatMillisAsProviderAmount(request.amountMillis)),
        payment_method_id: 'pix',
        description: request.description.slice(0, 140),
        external_reference: request.txid,
        date_of_expiration: brasiliaIso(new Date(now().getTime() + request.expiresInSeconds * 1000)),
        payer: { email: request.payerEmail ?? 'pagador@carteiro.local' },
      };
      const { status, body: answer } = await mpFetch(`${apiUrl}/v1/payments`, {
        method: 'POST',
        headers: { authorization: auth(), 'content-type': 'application/json', 'x-idempotency-key': request.txid },
        body: JSON.stringify(body),
      });
      const payment = answer as MercadoPagoPayment | null;
      if ((status !== 201 && status !== 200) || !payment?.id) {
        throw new ProviderError(`Mercado Pago recusou o pagamento (HTTP ${status}).`, status);
      }
      const qr = payment.point_of_interaction?.transaction_data?.qr_code;
      if (!qr) throw new ProviderError('Mercado Pago não devolveu o código Pix (qr_code).');
      if (
        payment.external_reference !== request.txid ||
        parseProviderAmountToMillis(payment.transaction_amount) !== request.amountMillis
      ) {
        throw new ProviderError('O pagamento criado no Mercado Pago não confere com a recarga.');
      }
      return { chargeId: String(payment.id), brCode: qr };
    },

    async readCharge(charge) {
      const payment = await options.fetchPayment(charge.chargeId);
      const p = toProviderPayment(payment);
      if (p.status === 'approved' || p.status === 'refunded')
        return { status: 'paid', payments: [{ ...p, status: 'approved' }] };
      if (p.status === 'cancelled' || p.status === 'rejected') return { status: 'expired', payments: [] };
      return { status: 'active', payments: [] };
    },

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
      if (topic !== 'payment' || !dataId) return [];
      const payment = await options.fetchPayment(dataId);
      if (String(payment.id) !== dataId) throw rejected('pagamento consultado não confere');
      return [toProviderPayment(payment)];
    },

    async refund(request) {
      const { status, body } = await mpFetch(`${apiUrl}/v1/payments/${encodeURIComponent(request.paymentId)}/refunds`, {
        method: 'POST',
        headers: { authorization: auth(), 'content-type': 'application/json', 'x-idempotency-key': request.refundCode },
        body: JSON.stringify({ amount: Number(formatMillisAsProviderAmount(request.amountMillis)) }),
      });
      const refund = body as MercadoPagoRefund | null;
      if (status >= 400 && status < 500 && status !== 401 && status !== 429) {
        const message = (body as { message?: unknown } | null)?.message;
        return {
          status: 'failed',
          providerRefundId: null,
          failureReason: typeof message === 'string' ? message : `HTTP ${status}`,
        };
      }
      if ((status !== 201 && status !== 200) || !refund?.id) {
        throw new ProviderError(`Mercado Pago respondeu ${status} ao estorno.`, status);
      }
      return mpRefundResult(refund);
    },

    async readRefund(request) {
      if (!request.providerRefundId) return null; // never acknowledged: the same idempotency key is safe to send
      const { status, body } = await mpFetch(
        `${apiUrl}/v1/payments/${encodeURIComponent(request.paymentId)}/refunds/${encodeURIComponent(request.providerRefundId)}`,
        { headers: { authorization: auth() } },
      );
      if (status === 404) return null;
      const refund = body as MercadoPagoRefund | null;
      if (status !== 200 || !refund?.id)
        throw new ProviderError(`Mercado Pago respondeu ${status} ao estorno.`, status);
      return mpRefundResult(refund);
    },
  };
}
