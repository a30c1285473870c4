/**
 * Pix BR Code ("Pix copia e cola", EMV QRCPS-MPM) as Banco Central specifies it (docs standards.md "Pix BR
 * Code"): TLV fields (2-digit id, 2-digit length, value) closed by a CRC-16/CCITT-FALSE. Pure: the server
 * builds codes for top-ups, the web can parse or show them.
 */
import { parseProviderAmountToMillis } from './provider-amount';

export const PIX_GUI = 'br.gov.bcb.pix';
export const PIX_MAX_MERCHANT_NAME = 25;
export const PIX_MAX_MERCHANT_CITY = 15;
export const PIX_MAX_TXID = 25;

export interface PixBrCodeInput {
  /** The receiver's Pix key (e-mail, phone, CPF/CNPJ or random key). */
  key: string;
  merchantName: string;
  merchantCity: string;
  /** Amount in millis; must be whole cents (Pix moves centavos). Omitted: the payer types the amount. */
  amountMillis?: number | null;
  /** Up to 25 letters and digits; omitted: `***`. */
  txid?: string | null;
}

export interface ParsedPixBrCode {
  /** The receiver's key (static codes); null in a dynamic code, which carries `url` instead. */
  key: string | null;
  /** Dynamic codes: the payload location (no scheme), e.g. `pix.example.com/qr/v2/…`. */
  url: string | null;
  /** Field 01: '11' reusable (static), '12' single use (dynamic); null when absent. */
  pointOfInitiation: string | null;
  merchantName: string;
  merchantCity: string;
  amountMillis: number | null;
  txid: string | null;
  crc: string;
}

export class InvalidPixBrCodeError extends Error {
  override name = 'InvalidPixBrCodeError';
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) as 4 upper-case hex digits. */
export function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Strips accents and anything outside printable ASCII: "Conceição" → "Conceicao". */
export function transliterateForPix(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function field(id: string, value: string): string {
  if (value.length > 99) throw new InvalidPixBrCodeError(`Campo ${id} longo demais (${value.length} > 99).`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Formats whole-cent millis as the BR Code amount: 10000 → "10.00". */
function formatPixAmount(amountMillis: number): string {
  if (!Number.isSafeInteger(amountMillis) || amountMillis <= 0 || amountMillis % 10 !== 0) {
    throw new InvalidPixBrCodeError('O valor do Pix deve ser positivo e em centavos inteiros.');
  }
  const cents = amountMillis / 10;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * Builds a static BR Code. The name is transliterated and cut to 25 characters; the city transliterated,
 * upper-cased and cut to 15 ("São Luís" → "SAO LUIS"). Throws InvalidPixBrCodeError on a bad key, txid or amount.
 */
export function buildPixBrCode(input: PixBrCodeInput): string {
  const key = input.key.trim();
  if (!key || !/^[\x21-\x7e]+$/.test(key) || key.length > 77) {
    throw new InvalidPixBrCodeError('Chave Pix inválida.');
  }
  const name = transliterateForPix(input.merchantName).slice(0, PIX_MAX_MERCHANT_NAME).trim();
  const city = transliterateForPix(input.merchantCity).toUpperCase().slice(0, PIX_MAX_MERCHANT_CITY).trim();
  if (!name) throw new InvalidPixBrCodeError('Nome do recebedor vazio.');
  if (!city) throw new InvalidPixBrCodeError('Cidade do recebedor vazia.');
  const txid = input.txid ?? '***';
  if (txid !== '***' && !new RegExp(`^[A-Za-z0-9]{1,${PIX_MAX_TXID}}$`).test(txid)) {
    throw new InvalidPixBrCodeError('O txid deve ter de 1 a 25 letras ou números.');
  }
  const payload =
    field('00', '01') +
    field('26', field('00', PIX_GUI) + field('01', key)) +
    field('52', '0000') +
    field('53', '986') +
    (input.amountMillis != null ? field('54', formatPixAmount(input.amountMillis)) : '') +
    field('58', 'BR') +
    field('59', name) +
    field('60', city) +
    field('62', field('05', txid)) +
    '6304';
  return payload + crc16CcittFalse(payload);
}

/**
 * Builds a dynamic BR Code for a charge created through a Pix API (BCB "QR dinâmico"): point of initiation 12
 * (single use), the payload location in field 26-25 instead of a key, txid `***` (the payer's bank fetches the
 * charge, txid included, from the location). Throws InvalidPixBrCodeError on a bad location.
 */
export function buildDynamicPixBrCode(input: { location: string; merchantName: string; merchantCity: string }): string {
  const location = input.location.trim().replace(/^https:\/\//, '');
  if (!location || location.length > 77 || !/^[\x21-\x7e]+$/.test(location)) {
    throw new InvalidPixBrCodeError('Location da cobrança inválida.');
  }
  const name = transliterateForPix(input.merchantName).slice(0, PIX_MAX_MERCHANT_NAME).trim();
  const city = transliterateForPix(input.merchantCity).toUpperCase().slice(0, PIX_MAX_MERCHANT_CITY).trim();
  if (!name) throw new InvalidPixBrCodeError('Nome do recebedor vazio.');
  if (!city) throw new InvalidPixBrCodeError('Cidade do recebedor vazia.');
  const payload =
    field('00', '01') +
    field('01', '12') +
    field('26', field('00', PIX_GUI) + field('25', location)) +
    field('52', '0000') +
    field('53', '986') +
    field('58', 'BR') +
    field('59', name) +
    field('60', city) +
    field('62', field('05', '***')) +
    '6304';
  return payload + crc16CcittFalse(payload);
}

/** Splits a TLV string into [id, value] pairs; throws on a bad id, a bad length or a value past the end. */
function readTlv(text: string, where: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let i = 0;
  while (i < text.length) {
    const head = text.slice(i, i + 4);
    if (!/^\d{4}$/.test(head)) throw new InvalidPixBrCodeError(`${where}: campo malformado na posição ${i}.`);
    const id = head.slice(0, 2);
    const length = Number(head.slice(2));
    const value = text.slice(i + 4, i + 4 + length);
    if (length === 0 || value.length !== length) {
      throw new InvalidPixBrCodeError(`${where}: comprimento inválido no campo ${id}.`);
    }
    out.push([id, value]);
    i += 4 + length;
  }
  return out;
}

/**
 * Parses and validates a BR Code: every TLV length, the CRC (last field, over everything before it including
 * "6304"), the Pix GUI, the key, currency 986, country BR, name ≤ 25 and city ≤ 15. Throws InvalidPixBrCodeError.
 */
export function parsePixBrCode(text: string): ParsedPixBrCode {
  const code = text.trim();
  if (code.length < 8 || !code.startsWith('000201')) {
    throw new InvalidPixBrCodeError('Não é um BR Code Pix (deve começar com 000201).');
  }
  const crcField = code.slice(-8);
  if (!/^6304[0-9A-Fa-f]{4}$/.test(crcField)) throw new InvalidPixBrCodeError('CRC ausente no final do código.');
  const crc = crcField.slice(4).toUpperCase();
  const expected = crc16CcittFalse(code.slice(0, -4));
  if (crc !== expected) throw new InvalidPixBrCodeError(`CRC inválido (${crc}, esperado ${expected}).`);

  const fields = readTlv(code, 'BR Code');
  const last = fields.at(-1);
  if (last?.[0] !== '63' || last[1].length !== 4) {
    throw new InvalidPixBrCodeError('O CRC deve ser o último campo.');
  }
  const get = (id: string) => fields.find(([fid]) => fid === id)?.[1];
  const merchant = get('26');
  if (!merchant) throw new InvalidPixBrCodeError('Campo 26 (conta Pix) ausente.');
  const sub = readTlv(merchant, 'Campo 26');
  const gui = sub.find(([id]) => id === '00')?.[1];
  const key = sub.find(([id]) => id === '01')?.[1] ?? null;
  const url = sub.find(([id]) => id === '25')?.[1] ?? null;
  if (gui?.toLowerCase() !== PIX_GUI) throw new InvalidPixBrCodeError('GUI do Pix ausente ou inválido.');
  if (!key && !url) throw new InvalidPixBrCodeError('Chave Pix ou location ausente.');
  if (get('52') !== '0000') throw new InvalidPixBrCodeError('Campo 52 deve ser 0000.');
  if (get('53') !== '986') throw new InvalidPixBrCodeError('Moeda deve ser 986 (real).');
  if (get('58') !== 'BR') throw new InvalidPixBrCodeError('País deve ser BR.');
  const merchantName = get('59');
  const merchantCity = get('60');
  if (!merchantName || merchantName.length > PIX_MAX_MERCHANT_NAME) {
    throw new InvalidPixBrCodeError('Nome do recebedor ausente ou com mais de 25 caracteres.');
  }
  if (!merchantCity || merchantCity.length > PIX_MAX_MERCHANT_CITY) {
    throw new InvalidPixBrCodeError('Cidade do recebedor ausente ou com mais de 15 caracteres.');
  }
  let amountMillis: number | null = null;
  const amount = get('54');
  if (amount !== undefined) {
    amountMillis = /^\d{1,10}(\.\d{1,2})?$/.test(amount) ? parseProviderAmountToMillis(amount) : null;
    if (amountMillis === null || amountMillis <= 0) throw new InvalidPixBrCodeError('Valor (campo 54) inválido.');
  }
  let txid: string | null = null;
  const additional = get('62');
  if (additional) {
    const value = readTlv(additional, 'Campo 62').find(([id]) => id === '05')?.[1];
    if (value && value !== '***') txid = value;
  }
  const pointOfInitiation = get('01') ?? null;
  return { key, url, pointOfInitiation, merchantName, merchantCity, amountMillis, txid, crc };
}
