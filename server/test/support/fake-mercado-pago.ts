import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildDynamicPixBrCode } from '@carteiro/shared';
import type {
  MercadoPagoCreatePayment,
  MercadoPagoPayment,
  MercadoPagoRefund,
} from '../../src/modules/billing/payments/mercado-pago';

export interface SignedNotification {
  url: string;
  headers: Record<string, string>;
  payload: { action: string; type: string; data: { id: string } };
}

export interface FakeMercadoPago {
  apiUrl: string;
  accessToken: string;
  webhookSecret: string;
  payments: Map<string, MercadoPagoPayment>;
  refunds: MercadoPagoRefund[];
  /** The payer pays (status approved, or another amount). */
  pay(paymentId: string, opts?: { amount?: number }): void;
  /** The Pix expires unpaid: status cancelled / expired. */
  expire(paymentId: string): void;
  /** The notification Mercado Pago POSTs to our webhook, signed (or signed with another secret: forged). */
  notification(paymentId: string, opts?: { secret?: string }): SignedNotification;
  paymentIdFor(txid: string): string;
  close(): Promise<void>;
}

/**
 * A loopback fake of Mercado Pago's payments API: Bearer access token, POST /v1/payments (Pix, idempotent by
 * X-Idempotency-Key), GET /v1/payments/:id, POST /v1/payments/:id/refunds, and x-signature webhooks
 * (HMAC-SHA256 over `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`).
 */
export async function startFakeMercadoPago(): Promise<FakeMercadoPago> {
  const accessToken = `APP_USR-${randomBytes(16).toString('hex')}`;
  const webhookSecret = randomBytes(16).toString('hex');
  const byKey = new Map<string, string>();
  let nextId = 1_300_000_000 + Math.floor(Math.random() * 1000);

  const fake: FakeMercadoPago = {
    apiUrl: '',
    accessToken,
    webhookSecret,
    payments: new Map(),
    refunds: [],
    pay(paymentId, opts = {}) {
      const p = fake.payments.get(paymentId);
      if (!p) throw new Error(`no payment ${paymentId}`);
      p.status = 'approved';
      p.status_detail = 'accredited';
      if (opts.amount !== undefined) p.transaction_amount = opts.amount;
    },
    expire(paymentId) {
      const p = fake.payments.get(paymentId);
      if (!p) throw new Error(`no payment ${paymentId}`);
      p.status = 'cancelled';
      p.status_detail = 'expired';
    },
    notification(paymentId, opts = {}) {
      const ts = String(Math.floor(Date.now() / 1000));
      const requestId = randomUUID();
      const v1 = createHmac('sha256', opts.secret ?? webhookSecret)
        .update(`id:${paymentId};request-id:${requestId};ts:${ts};`)
        .digest('hex');
      return {
        url: `/api/webhooks/mercadopago?data.id=${paymentId}&type=payment`,
        headers: { 'content-type': 'application/json', 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId },
        payload: { action: 'payment.updated', type: 'payment', data: { id: paymentId } },
      };
    },
    paymentIdFor(txid) {
      const found = [...fake.payments.values()].find((p) => p.external_reference === txid);
      if (!found) throw new Error(`no payment for ${txid}`);
      return String(found.id);
    },
    close: async () => {},
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${accessToken}`) {
        return send(401, { message: 'invalid access token', error: 'unauthorized', status: 401 });
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST' && url.pathname === '/v1/payments') {
        const key = req.headers['x-idempotency-key'];
        if (typeof key !== 'string' || !key) return send(400, { message: 'X-Idempotency-Key required', status: 400 });
        const known = byKey.get(key);
        if (known) return send(200, fake.payments.get(known));
        const body = JSON.parse(raw) as MercadoPagoCreatePayment;
        if (
          body.payment_method_id !== 'pix' ||
          typeof body.transaction_amount !== 'number' ||
          !(body.transaction_amount > 0) ||
          !body.payer?.email ||
          !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[-+]\d{2}:\d{2}$/.test(body.date_of_expiration)
        ) {
          return send(400, { message: 'invalid parameters', status: 400 });
        }
        const id = nextId++;
        const location = `127.0.0.1/mp/qr/${randomUUID()}`;
        const payment: MercadoPagoPayment = {
          id,
          status: 'pending',
          status_detail: 'pending_waiting_transfer',
          currency_id: 'BRL',
          transaction_amount: body.transaction_amount,
          external_reference: body.external_reference,
          date_of_expiration: body.date_of_expiration,
          point_of_interaction: {
            type: 'PIX',
            transaction_data: {
              qr_code: buildDynamicPixBrCode({ location, merchantName: 'Mercado Pago', merchantCity: 'OSASCO' }),
              qr_code_base64: '',
              ticket_url: `http://127.0.0.1/mp/ticket/${id}`,
            },
          },
        };
        fake.payments.set(String(id), payment);
        byKey.set(key, String(id));
        return send(201, payment);
      }
      const get = /^\/v1\/payments\/(\d+)$/.exec(url.pathname);
      if (get && req.method === 'GET') {
        const p = fake.payments.get(get[1] as string);
        return p ? send(200, p) : send(404, { message: 'Payment not found', status: 404 });
      }
      const oneRefund = /^\/v1\/payments\/(\d+)\/refunds\/(\d+)$/.exec(url.pathname);
      if (oneRefund && req.method === 'GET') {
        const found = fake.refunds.find((r) => String(r.id) === oneRefund[2] && String(r.payment_id) === oneRefund[1]);
        return found ? send(200, found) : send(404, { message: 'Refund not found', status: 404 });
      }
      const refund = /^\/v1\/payments\/(\d+)\/refunds$/.exec(url.pathname);
      if (refund && req.method === 'POST') {
        const p = fake.payments.get(refund[1] as string);
        if (!p) return send(404, { message: 'Payment not found', status: 404 });
        const key = String(req.headers['x-idempotency-key'] ?? '');
        const again = fake.refunds.find((r) => (r as MercadoPagoRefund & { key?: string }).key === key);
        if (key && again) return send(201, again);
        if (p.status !== 'approved') return send(400, { message: 'Payment not approved', status: 400 });
        const amount = (JSON.parse(raw || '{}') as { amount?: number }).amount ?? Number(p.transaction_amount);
        const refunded = p.transaction_amount_refunded ?? 0;
        if (Math.round((refunded + amount) * 100) > Math.round(Number(p.transaction_amount) * 100)) {
          return send(400, { message: 'Invalid refund amount', status: 400 });
        }
        p.transaction_amount_refunded = Math.round((refunded + amount) * 100) / 100;
        const r = { id: nextId++, payment_id: p.id, amount, status: 'approved', key };
        fake.refunds.push(r);
        return send(201, r);
      }
      return send(404, { message: 'not found', status: 404 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
