import { timingSafeEqual } from 'node:crypto';
import https from 'node:https';
import { buildDynamicPixBrCode, formatMillisAsProviderAmount, parseProviderAmountToMillis } from '@carteiro/shared';
import { AppError } from '../../../http/app-error';
import { ERROR_TEXT } from '../../../http/error-texts';
import type { ProviderPayment } from '../credit-topup';
import { type JsonResponse, requestJson } from './http-json';
import type { ChargeState, PaymentProvider, RefundResult } from './payment-provider';
import { ProviderError } from './payment-provider';
import {
  COB_TXID_PATTERN,
  type CobCompleta,
  type CobPayload,
  DEVOLUCAO_ID_PATTERN,
  type Devolucao,
  type DevolucaoSolicitada,
  type OAuthTokenResponse,
  PIX_API_AMOUNT_PATTERN,
  type PixRecebido,
} from './pix-api.types';

export interface PixApiOptions {
  /** Base URL of the PSP's Pix API, e.g. https://pix.banco.com.br/api/v2 (paths /cob, /pix are appended). */
  baseUrl: string;
  /** OAuth2 token endpoint (client credentials over the same mTLS). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The account's certificate and private key (PEM), and optionally the PSP's CA (PEM). */
  certPem: string;
  keyPem: string;
  caPem?: string | null;
  /** The receiver's Pix key registered at the PSP, and the name/city for a BR Code built from `location`. */
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  /** The secret path segment of our webhook URL (…/api/webhooks/pix-api/<token>/pix). */
  webhookToken: string;
  now?: () => Date;
}

const SCOPES = 'cob.write cob.read pix.write pix.read';

function problem(response: JsonResponse, what: string): ProviderError {
  const body = response.body as { title?: unknown; detail?: unknown } | null;
  const detail = typeof body?.detail === 'string' ? body.detail : typeof body?.title === 'string' ? body.title : '';
  return new ProviderError(
    `API Pix: ${what} respondeu HTTP ${response.status}${detail ? ` (${detail})` : ''}`,
    response.status,
  );
}

function rejected(reason: string): AppError {
  return new AppError('unauthenticated', `Webhook recusado: ${reason}.`);
}

/** A received Pix, as the API reports it, as a ProviderPayment (amount read from its decimal text). */
function toPayment(pix: PixRecebido, txid: string): ProviderPayment {
  const amountMillis = PIX_API_AMOUNT_PATTERN.test(pix.valor) ? parseProviderAmountToMillis(pix.valor) : null;
  if (amountMillis === null) throw new ProviderError(`API Pix: valor ilegível no Pix ${pix.endToEndId}`);
  return { provider: 'pix-api', paymentId: pix.endToEndId, txid, amountMillis, currency: 'BRL', status: 'approved' };
}

function refundResultOf(devolucao: Devolucao): RefundResult {
  const status =
    devolucao.status === 'DEVOLVIDO' ? 'done' : devolucao.status === 'NAO_REALIZADO' ? 'failed' : 'processing';
  return { status, providerRefundId: devolucao.rtrId ?? devolucao.id, failureReason: devolucao.motivo ?? null };
}

function isCob(body: unknown): body is CobCompleta {
  const cob = body as CobCompleta | null;
  return Boolean(cob && typeof cob.txid === 'string' && typeof cob.status === 'string' && cob.valor);
}

/**
 * The Banco Central's standard Pix API (every bank PSP implements it): OAuth2 client credentials over mTLS with
 * the account's certificate, `PUT /cob/{txid}`, `GET /cob/{txid}`, the `POST …/pix` webhook and refunds
 * `PUT /pix/{e2eid}/devolucao/{id}`. The access token is cached until shortly before it expires.
 */
export function createPixApiProvider(options: PixApiOptions): PaymentProvider {
  const agent = new https.Agent({
    cert: options.certPem,
    key: options.keyPem,
    ca: options.caPem ?? undefined,
    keepAlive: true,
    maxSockets: 4,
  });
  const base = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  let token: { value: string; expiresAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > now().getTime()) return token.value;
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const response = await requestJson({
      url: options.tokenUrl,
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: 'client_credentials', scope: SCOPES },
      agent,
    });
    const body = response.body as OAuthTokenResponse | null;
    if (response.status !== 200 || typeof body?.access_token !== 'string') throw problem(response, 'o token OAuth2');
    const lifetimeMs = Math.max(0, (Number(body.expires_in) || 0) - 60) * 1000;
    token = { value: body.access_token, expiresAt: now().getTime() + lifetimeMs };
    return token.value;
  }

  async function call(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<JsonResponse> {
    let response = await requestJson({
      url: `${base}${path}`,
      method,
      headers: { authorization: `Bearer ${await accessToken()}` },
      body,
      agent,
    });
    if (response.status === 401) {
      // Token revoked or expired early: one fresh token, one retry.
      token = null;
      response = await requestJson({
        url: `${base}${path}`,
        method,
        headers: { authorization: `Bearer ${await accessToken()}` },
        body,
        agent,
      });
    }
    return response;
  }

  async function getCob(txid: string): Promise<CobCompleta> {
    if (!COB_TXID_PATTERN.test(txid)) throw new ProviderError(`txid inválido para a API Pix: ${txid}`);
    const response = await call('GET', `/cob/${txid}`);
    if (response.status !== 200 || !isCob(response.body)) throw problem(response, `GET /cob/${txid}`);
    return response.body;
  }

  function stateOf(cob: CobCompleta): ChargeState {
    const payments = (cob.pix ?? []).map((pix) => toPayment(pix, cob.txid));
    const expiresAt = new Date(cob.calendario.criacao).getTime() + cob.calendario.expiracao * 1000;
    let status: ChargeState['status'];
    if (payments.length > 0 || cob.status === 'CONCLUIDA') status = 'paid';
    else if (cob.status !== 'ATIVA') status = 'removed';
    else status = Number.isFinite(expiresAt) && expiresAt < now().getTime() ? 'expired' : 'active';
    return { status, payments };
  }

  return {
    name: 'pix-api',

    async createCharge(request) {
      const payload: CobPayload = {
        calendario: { expiracao: request.expiresInSeconds },
        valor: { original: formatMillisAsProviderAmount(request.amountMillis), modalidadeAlteracao: 0 },
        chave: options.pixKey,
        solicitacaoPagador: request.description.slice(0, 140),
      };
      if (!COB_TXID_PATTERN.test(request.txid))
        throw new ProviderError(`txid inválido para a API Pix: ${request.txid}`);
      const response = await call('PUT', `/cob/${request.txid}`, payload);
      if ((response.status !== 201 && response.status !== 200) || !isCob(response.body)) {
        throw problem(response, `PUT /cob/${request.txid}`);
      }
      const cob = response.body;
      if (cob.txid !== request.txid || cob.valor.original !== payload.valor.original) {
        throw new ProviderError('API Pix: a cobrança criada não confere com o pedido');
      }
      const location = cob.location ?? cob.loc?.location;
      const brCode =
        cob.pixCopiaECola ??
        (location
          ? buildDynamicPixBrCode({ location, merchantName: options.merchantName, merchantCity: options.merchantCity })
          : null);
      if (!brCode) throw new ProviderError('API Pix: a cobrança veio sem pixCopiaECola nem location');
      return { chargeId: cob.txid, brCode };
    },

    async readCharge(charge) {
      return stateOf(await getCob(charge.chargeId));
    },

    async verifyWebhook(request) {
      const given = Buffer.from(String(request.params?.token ?? ''));
      const expected = Buffer.from(options.webhookToken);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw rejected('endereço inválido');
      const body = request.body as { pix?: unknown } | null;
      if (!body || !Array.isArray(body.pix))
        throw new AppError('bad_request', ERROR_TEXT.billing.pixWebhookWithoutList);
      // The body only says which charges to look at: each payment is re-read from GET /cob/{txid}, so a forged
      // or altered notification (other amount, invented endToEndId) credits nothing.
      const txids = new Set<string>();
      const announced = new Set<string>();
      for (const item of body.pix as Array<Partial<PixRecebido>>) {
        if (typeof item?.txid === 'string' && COB_TXID_PATTERN.test(item.txid)) txids.add(item.txid);
        if (typeof item?.endToEndId === 'string') announced.add(item.endToEndId);
      }
      const payments: ProviderPayment[] = [];
      for (const txid of txids) {
        let cob: CobCompleta;
        try {
          cob = await getCob(txid);
        } catch (error) {
          if (error instanceof ProviderError && error.status === 404) continue;
          throw error;
        }
        for (const payment of stateOf(cob).payments) if (announced.has(payment.paymentId)) payments.push(payment);
      }
      return payments;
    },

    async refund(request): Promise<RefundResult> {
      if (!DEVOLUCAO_ID_PATTERN.test(request.refundCode)) throw new ProviderError('id de devolução inválido');
      const body: DevolucaoSolicitada = {
        valor: formatMillisAsProviderAmount(request.amountMillis),
        natureza: 'ORIGINAL',
        descricao: request.description.slice(0, 140),
      };
      const path = `/pix/${encodeURIComponent(request.paymentId)}/devolucao/${request.refundCode}`;
      const response = await call('PUT', path, body);
      const devolucao = response.body as Devolucao | null;
      if (response.status >= 400 && response.status < 500 && response.status !== 401 && response.status !== 429) {
        const detail = (response.body as { detail?: unknown } | null)?.detail;
        return {
          status: 'failed',
          providerRefundId: null,
          failureReason: typeof detail === 'string' ? detail : `HTTP ${response.status}`,
        };
      }
      if ((response.status !== 201 && response.status !== 200) || typeof devolucao?.status !== 'string') {
        throw problem(response, `PUT ${path}`);
      }
      return refundResultOf(devolucao);
    },

    async readRefund(request) {
      if (!DEVOLUCAO_ID_PATTERN.test(request.refundCode)) throw new ProviderError('id de devolução inválido');
      const path = `/pix/${encodeURIComponent(request.paymentId)}/devolucao/${request.refundCode}`;
      const response = await call('GET', path);
      if (response.status === 404) return null;
      const devolucao = response.body as Devolucao | null;
      if (response.status !== 200 || typeof devolucao?.status !== 'string') throw problem(response, `GET ${path}`);
      return refundResultOf(devolucao);
    },
  };
}
