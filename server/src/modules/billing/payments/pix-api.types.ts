/**
 * Request and answer types of the Banco Central's standard Pix API (API Pix, bacen/pix-api, OpenAPI v2.x) —
 * only the operations Carteiro calls: immediate charges (`cob`), received Pix, refunds (`devolucao`) and the
 * webhook callback. Field names, formats and enums as published; comments quote the spec's constraints.
 */

/** `txid` of a cob created with PUT: `^[a-zA-Z0-9]{26,35}$`. */
export const COB_TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;
/** Refund id (`id` in /pix/{e2eid}/devolucao/{id}): `^[a-zA-Z0-9]{1,35}$`. */
export const DEVOLUCAO_ID_PATTERN = /^[a-zA-Z0-9]{1,35}$/;
/** Amounts (`valor.original`, `Pix.valor`, `Devolucao.valor`): `^\d{1,10}\.\d{2}$`. */
export const PIX_API_AMOUNT_PATTERN = /^\d{1,10}\.\d{2}$/;

/** `CobPayload`: body of PUT /cob/{txid}. */
export interface CobPayload {
  calendario: {
    /** Seconds from creation during which the charge can be paid (default 86400). */
    expiracao?: number;
  };
  devedor?: { cpf: string; nome: string } | { cnpj: string; nome: string };
  valor: {
    original: string;
    /** 0 (default): the payer cannot change the amount; 1: they can. */
    modalidadeAlteracao?: 0 | 1;
  };
  /** The receiver's Pix key (DICT). */
  chave: string;
  /** Text shown to the payer, up to 140 characters. */
  solicitacaoPagador?: string;
  /** Up to 50 name/value pairs shown to the payer. */
  infoAdicionais?: Array<{ nome: string; valor: string }>;
}

/** `CobStatus`. */
export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

/** `DevolucaoStatus`. */
export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

/** `Devolucao`: a refund of a received Pix. */
export interface Devolucao {
  id: string;
  /** Return id in the SPI (`^[a-zA-Z0-9]{32}$`). */
  rtrId: string;
  valor: string;
  natureza?: 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE';
  descricao?: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: DevolucaoStatus;
  motivo?: string;
}

/** `Pix`: one payment received (also each item of the webhook callback). */
export interface PixRecebido {
  /** End-to-end id of the SPI transaction (`^[a-zA-Z0-9]{32}$`). */
  endToEndId: string;
  txid?: string;
  valor: string;
  chave?: string;
  /** RFC 3339 date-time of the payment. */
  horario: string;
  infoPagador?: string;
  devolucoes?: Devolucao[];
}

/** `CobCompleta` / `CobGerada`: the answer of PUT and GET /cob/{txid}. */
export interface CobCompleta {
  calendario: { criacao: string; expiracao: number };
  txid: string;
  revisao: number;
  loc?: { id: number; location: string; tipoCob: 'cob' | 'cobv'; criacao?: string };
  /** The payload location (no scheme) the dynamic BR Code points to. */
  location?: string;
  status: CobStatus;
  devedor?: { cpf?: string; cnpj?: string; nome: string };
  valor: { original: string; modalidadeAlteracao?: 0 | 1 };
  chave: string;
  solicitacaoPagador?: string;
  /** The BR Code ("copia e cola") of the charge; present since API v2.1. */
  pixCopiaECola?: string;
  pix?: PixRecebido[];
}

/** Body of PUT /pix/{e2eid}/devolucao/{id}. */
export interface DevolucaoSolicitada {
  valor: string;
  natureza?: 'ORIGINAL' | 'RETIRADA';
  descricao?: string;
}

/** The webhook callback: POST {webhookUrl}/pix. */
export interface PixWebhookCallback {
  pix: PixRecebido[];
}

/** RFC 7807 problem the API answers on errors (`type`, `title`, `status`, `detail`, `violacoes`). */
export interface PixApiProblem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  violacoes?: Array<{ razao: string; propriedade: string; valor?: string }>;
}

/** OAuth2 client-credentials answer (RFC 6749 §5.1) of the PSP's token endpoint. */
export interface OAuthTokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}
