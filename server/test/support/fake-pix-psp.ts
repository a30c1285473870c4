import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { buildDynamicPixBrCode } from '@carteiro/shared';
import type {
  CobCompleta,
  CobPayload,
  Devolucao,
  DevolucaoSolicitada,
  PixRecebido,
  PixWebhookCallback,
} from '../../src/modules/billing/payments/pix-api.types';
import { createTestPki, type TestPki } from './test-ca';

const AMOUNT = /^\d{1,10}\.\d{2}$/;
const TXID = /^[a-zA-Z0-9]{26,35}$/;

function cents(valor: string): number {
  const [whole, frac] = valor.split('.');
  return Number(whole) * 100 + Number(frac);
}

function valorOf(centsValue: number): string {
  return `${Math.floor(centsValue / 100)}.${String(centsValue % 100).padStart(2, '0')}`;
}

export interface FakePixPsp {
  pki: TestPki;
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Every cob by txid, as the PSP stores it. */
  cobs: Map<string, CobCompleta & { expired?: boolean }>;
  refunds: Devolucao[];
  tokensIssued: number;
  /** Requests refused for lack of a valid client certificate or token. */
  refused: { tls: number; token: number };
  /** The payer pays the cob (its amount, or another one); refused when expired unless `late`. Returns the Pix. */
  pay(txid: string, opts?: { amountMillis?: number; late?: boolean }): PixRecebido;
  /** The cob passes its expiry without payment. */
  expire(txid: string): void;
  /** The webhook body the PSP POSTs to {webhookUrl}/pix for these payments. */
  callback(...pix: PixRecebido[]): PixWebhookCallback;
  /** POSTs the callback to a URL over loopback HTTP (browser tests); answers the status. */
  deliver(url: string, body: PixWebhookCallback): Promise<number>;
  /** Makes the next refunds answer NAO_REALIZADO (or be accepted again). */
  failRefunds(fail: boolean): void;
  /** Makes the API answer 503 (down) or come back. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/**
 * A loopback fake of a bank's Pix API following the BCB specification: HTTPS demanding a client certificate
 * from the test CA (mTLS), OAuth2 client credentials (Basic auth) for a bearer token, PUT/GET /cob/{txid},
 * PUT /pix/{e2eid}/devolucao/{id}; answers problems as RFC 7807 JSON.
 */
export async function startFakePixPsp(
  opts: { merchantName?: string; merchantCity?: string; pixKey?: string } = {},
): Promise<FakePixPsp> {
  const pki = createTestPki();
  const clientId = `cliente-${randomUUID()}`;
  const clientSecret = randomBytes(24).toString('hex');
  const tokens = new Set<string>();
  let failRefunds = false;
  let down = false;
  let origin = '';

  const fake: Omit<FakePixPsp, 'baseUrl' | 'tokenUrl'> & { baseUrl: string; tokenUrl: string } = {
    pki,
    baseUrl: '',
    tokenUrl: '',
    clientId,
    clientSecret,
    cobs: new Map(),
    refunds: [],
    tokensIssued: 0,
    refused: { tls: 0, token: 0 },
    pay(txid, payOpts = {}) {
      const cob = fake.cobs.get(txid);
      if (!cob) throw new Error(`no cob ${txid}`);
      if (cob.status !== 'ATIVA') throw new Error(`cob ${txid} is ${cob.status}`);
      if (cob.expired && !payOpts.late) throw new Error(`cob ${txid} expired`);
      const valor =
        payOpts.amountMillis !== undefined ? valorOf(Math.round(payOpts.amountMillis / 10)) : cob.valor.original;
      const pix: PixRecebido = {
        endToEndId:
          `E${'12345678'}${new Date().toISOString().replace(/\D/g, '').slice(0, 12)}${randomBytes(6).toString('hex')}`.slice(
            0,
            32,
          ),
        txid,
        valor,
        chave: cob.chave,
        horario: new Date().toISOString(),
        infoPagador: 'Pagamento de teste',
      };
      cob.status = 'CONCLUIDA';
      cob.pix = [...(cob.pix ?? []), pix];
      return pix;
    },
    expire(txid) {
      const cob = fake.cobs.get(txid);
      if (!cob) throw new Error(`no cob ${txid}`);
      cob.expired = true;
      cob.calendario.criacao = new Date(Date.now() - (cob.calendario.expiracao + 60) * 1000).toISOString();
    },
    callback: (...pix) => ({ pix }),
    async deliver(url, body) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return response.status;
    },
    failRefunds(fail) {
      failRefunds = fail;
    },
    setDown(value) {
      down = value;
    },
    close: async () => {},
  };

  function send(res: import('node:http').ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
  function problem(res: import('node:http').ServerResponse, status: number, title: string, detail: string) {
    send(res, status, { type: `https://pix.bcb.gov.br/api/v2/error/${title}`, title, status, detail });
  }

  const server = https.createServer(
    {
      key: fs.readFileSync(pki.serverKeyFile),
      cert: fs.readFileSync(pki.serverCertFile),
      ca: fs.readFileSync(pki.caCertFile),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const url = new URL(req.url ?? '/', origin);
        if (down) return problem(res, 503, 'ServicoIndisponivel', 'API em manutenção.');
        if (req.method === 'POST' && url.pathname === '/oauth/token') {
          const basic = (req.headers.authorization ?? '').replace(/^Basic /, '');
          const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
          const form = new URLSearchParams(raw);
          if (id !== clientId || secret !== clientSecret || form.get('grant_type') !== 'client_credentials') {
            return send(res, 401, { error: 'invalid_client' });
          }
          const token = randomBytes(20).toString('hex');
          tokens.add(token);
          fake.tokensIssued++;
          return send(res, 200, {
            access_token: token,
            token_type: 'Bearer',
            expires_in: 3600,
            scope: form.get('scope') ?? '',
          });
        }
        const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!tokens.has(bearer)) {
          fake.refused.token++;
          return problem(res, 401, 'AcessoNegado', 'Token ausente ou inválido.');
        }
        let body: unknown = null;
        try {
          body = raw ? JSON.parse(raw) : null;
        } catch {
          return problem(res, 400, 'CobPayloadInvalido', 'JSON inválido.');
        }
        const cobMatch = /^\/v2\/cob\/([^/]+)$/.exec(url.pathname);
        if (cobMatch) {
          const txid = cobMatch[1] as string;
          if (!TXID.test(txid)) return problem(res, 400, 'CobPayloadInvalido', 'txid inválido.');
          if (req.method === 'GET') {
            const cob = fake.cobs.get(txid);
            if (!cob) return problem(res, 404, 'CobNaoEncontrado', 'Cobrança não encontrada.');
            const { expired: _expired, ...shown } = cob;
            return send(res, 200, shown);
          }
          if (req.method === 'PUT') {
            const payload = body as CobPayload | null;
            if (
              !payload ||
              !Number.isInteger(payload.calendario?.expiracao) ||
              !AMOUNT.test(payload.valor?.original ?? '') ||
              typeof payload.chave !== 'string' ||
              (payload.solicitacaoPagador?.length ?? 0) > 140
            ) {
              return problem(res, 400, 'CobPayloadInvalido', 'Campos obrigatórios ausentes ou inválidos.');
            }
            if (fake.cobs.has(txid)) return problem(res, 400, 'CobPayloadInvalido', 'txid já utilizado.');
            const location = `127.0.0.1/qr/v2/${randomUUID()}`;
            const cob: CobCompleta = {
              calendario: { criacao: new Date().toISOString(), expiracao: payload.calendario.expiracao as number },
              txid,
              revisao: 0,
              loc: { id: fake.cobs.size + 1, location, tipoCob: 'cob' },
              location,
              status: 'ATIVA',
              valor: { original: payload.valor.original, modalidadeAlteracao: payload.valor.modalidadeAlteracao ?? 0 },
              chave: payload.chave,
              solicitacaoPagador: payload.solicitacaoPagador,
              pixCopiaECola: buildDynamicPixBrCode({
                location,
                merchantName: opts.merchantName ?? 'Carteiro',
                merchantCity: opts.merchantCity ?? 'SAO PAULO',
              }),
            };
            fake.cobs.set(txid, cob);
            return send(res, 201, cob);
          }
        }
        const devMatch = /^\/v2\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(url.pathname);
        if (devMatch && req.method === 'GET') {
          const found = fake.refunds.find((r) => r.id === devMatch[2]);
          return found
            ? send(res, 200, found)
            : problem(res, 404, 'DevolucaoNaoEncontrada', 'Devolução não encontrada.');
        }
        if (devMatch && req.method === 'PUT') {
          const [, e2eid, id] = devMatch as unknown as [string, string, string];
          const existing = fake.refunds.find((r) => r.id === id);
          if (existing) return send(res, 201, existing);
          const payload = body as DevolucaoSolicitada | null;
          if (!payload || !AMOUNT.test(payload.valor ?? '')) {
            return problem(res, 400, 'DevolucaoInvalida', 'Valor inválido.');
          }
          const pix = [...fake.cobs.values()].flatMap((c) => c.pix ?? []).find((p) => p.endToEndId === e2eid);
          if (!pix) return problem(res, 404, 'PixNaoEncontrado', 'Pix não encontrado.');
          const already = (pix.devolucoes ?? []).reduce(
            (sum, d) => sum + (d.status === 'NAO_REALIZADO' ? 0 : cents(d.valor)),
            0,
          );
          if (already + cents(payload.valor) > cents(pix.valor)) {
            return problem(res, 400, 'DevolucaoInvalida', 'Valor maior que o disponível para devolução.');
          }
          const devolucao: Devolucao = {
            id,
            rtrId: `D${randomBytes(16).toString('hex')}`.slice(0, 32),
            valor: payload.valor,
            natureza: payload.natureza ?? 'ORIGINAL',
            descricao: payload.descricao,
            horario: { solicitacao: new Date().toISOString() },
            status: failRefunds ? 'NAO_REALIZADO' : 'EM_PROCESSAMENTO',
            ...(failRefunds ? { motivo: 'Saldo insuficiente na conta do recebedor.' } : {}),
          };
          pix.devolucoes = [...(pix.devolucoes ?? []), devolucao];
          fake.refunds.push(devolucao);
          return send(res, 201, devolucao);
        }
        return problem(res, 404, 'NaoEncontrado', `${req.method} ${url.pathname}`);
      });
    },
  );
  server.on('tlsClientError', () => {
    fake.refused.tls++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `https://127.0.0.1:${port}`;
  fake.baseUrl = `${origin}/v2`;
  fake.tokenUrl = `${origin}/oauth/token`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        fs.rmSync(pki.dir, { recursive: true, force: true });
        resolve();
      });
    });
  return fake;
}
