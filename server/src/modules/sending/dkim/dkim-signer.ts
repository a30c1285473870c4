/**
 * DKIM signing (RFC 6376) with relaxed/relaxed canonicalisation, RSA-SHA256 or Ed25519-SHA256 (RFC 8463).
 *
 * The private key is parsed once into a `KeyObject` when the signer is created (parsing a PEM per message
 * triples the cost of an RSA signature). `sign(raw)` returns the message with a `DKIM-Signature` header
 * prepended; the `h=` list names only the configured headers the message actually has, so the RFC 8058
 * List-Unsubscribe headers are covered whenever present.
 */
import crypto, { createHash, createPrivateKey, createPublicKey, sign as cryptoSign, type KeyObject } from 'node:crypto';

export type DkimAlgorithm = 'rsa-sha256' | 'ed25519-sha256';

export const DEFAULT_SIGNED_HEADERS = [
  'from',
  'to',
  'subject',
  'date',
  'message-id',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'list-id',
  'mime-version',
  'content-type',
] as const;

export interface DkimSignerOptions {
  domain: string;
  selector: string;
  privateKeyPem: string;
  algorithm: DkimAlgorithm;
  /** Header names to sign, in order (case-insensitive); defaults to `DEFAULT_SIGNED_HEADERS`. */
  headerNames?: readonly string[];
  /** Adds `t=` (signing time, seconds); default true. */
  timestamp?: boolean;
  /** Clock for `t=` (tests). */
  now?: () => number;
}

export interface DkimSigner {
  readonly algorithm: DkimAlgorithm;
  /** The `DKIM-Signature: …\r\n` header line(s) for `raw` (a full message with CRLF line endings). */
  signatureHeader(raw: Buffer): string;
  /** `raw` with its DKIM-Signature header prepended. */
  sign(raw: Buffer): Buffer;
}

const CRLF_CRLF = Buffer.from('\r\n\r\n', 'latin1');
const TWO_SPACES = Buffer.from('  ', 'latin1');
const SPACE_CRLF = Buffer.from(' \r\n', 'latin1');
const TAB = 0x09;
/** Node ≥ 20.12 one-shot hash. */
const oneShotHash = (crypto as unknown as { hash?: (alg: string, data: Buffer, enc: 'base64') => string }).hash;

/**
 * The relaxed body hash (bh=) of `raw`'s body from `start`. Fast path on the buffer itself when the body has
 * nothing relaxed canonicalisation would change but its trailing empty lines (the case of our quoted-printable
 * bodies: no tab, no double space, no space before a line break); the string path otherwise.
 */
export function relaxedBodyHash(raw: Buffer, start: number): string {
  const body = raw.subarray(Math.min(start, raw.length));
  const plain =
    body.indexOf(TAB) < 0 &&
    body.indexOf(TWO_SPACES) < 0 &&
    body.indexOf(SPACE_CRLF) < 0 &&
    body[body.length - 1] !== 0x20;
  if (plain && oneShotHash) {
    let end = body.length;
    while (end >= 2 && body[end - 1] === 10 && body[end - 2] === 13) end -= 2;
    if (end > 0 && end + 2 <= body.length) return oneShotHash('sha256', body.subarray(0, end + 2), 'base64');
  }
  return createHash('sha256')
    .update(canonicalizeBodyRelaxed(body.toString('latin1')), 'latin1')
    .digest('base64');
}
const NEEDS_BODY_WSP_FIX = /[ \t](?:[ \t]|\r\n)|\t/;

/** RFC 6376 §3.4.4 relaxed body canonicalisation of a body with CRLF line endings (latin1 string). */
export function canonicalizeBodyRelaxed(body: string): string {
  let b = body;
  if (NEEDS_BODY_WSP_FIX.test(b)) b = b.replace(/[ \t]+\r\n/g, '\r\n').replace(/[ \t]+/g, ' ');
  // A trailing run of WSP on the very last line (no CRLF after it) is also removed.
  if (b.endsWith(' ')) b = b.replace(/ +$/, '');
  let end = b.length;
  while (end >= 2 && b.charCodeAt(end - 1) === 10 && b.charCodeAt(end - 2) === 13) end -= 2;
  if (end === 0) return '';
  return `${b.slice(0, end)}\r\n`;
}

/** RFC 6376 §3.4.2 relaxed header canonicalisation of one header field (name and value, possibly folded). */
export function canonicalizeHeaderRelaxed(field: string): string {
  const colon = field.indexOf(':');
  const name = field.slice(0, colon).trim().toLowerCase();
  const value = field
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
}

/** Splits a header block into fields (continuation lines joined, CRLFs kept). */
function headerFields(head: string): { name: string; field: string }[] {
  const fields: { name: string; field: string }[] = [];
  const lines = head.split('\r\n');
  for (const line of lines) {
    const first = line.charCodeAt(0);
    if ((first === 32 || first === 9) && fields.length > 0) {
      fields[fields.length - 1]!.field += `\r\n${line}`;
    } else if (line.length > 0) {
      const colon = line.indexOf(':');
      fields.push({ name: line.slice(0, colon).trim().toLowerCase(), field: line });
    }
  }
  return fields;
}

/** Header lines aim at 78 characters (RFC 5322 §2.1.1). */
const HEADER_LINE = 78;

/** Appends pieces to a header, folding (CRLF + space) before a piece that would pass 78 characters. */
class HeaderFolder {
  text: string;
  lineLength: number;
  constructor(start: string) {
    this.text = start;
    this.lineLength = start.length;
  }
  /** Adds `piece` after `separator` (' ' or '' — a fold always brings its own space). */
  add(piece: string, separator: string): void {
    if (this.lineLength + separator.length + piece.length > HEADER_LINE) {
      this.text += `\r\n ${piece}`;
      this.lineLength = 1 + piece.length;
    } else {
      this.text += separator + piece;
      this.lineLength += separator.length + piece.length;
    }
  }
}

/** What recreates a signer elsewhere (a signing thread): its options but the clock, which the caller passes. */
export type DkimSignerSpec = Omit<DkimSignerOptions, 'now'>;

/** The options each signer made by createDkimSigner was made from (the signing pool sends them to its threads). */
const specs = new WeakMap<DkimSigner, { spec: DkimSignerSpec; now: () => number }>();

/** The spec and clock of a signer made by createDkimSigner; undefined for any other DkimSigner. */
export function dkimSignerSpec(signer: DkimSigner): { spec: DkimSignerSpec; now: () => number } | undefined {
  return specs.get(signer);
}

export function createDkimSigner(options: DkimSignerOptions): DkimSigner {
  const key: KeyObject = createPrivateKey(options.privateKeyPem);
  const expectedType = options.algorithm === 'rsa-sha256' ? 'rsa' : 'ed25519';
  if (key.asymmetricKeyType !== expectedType) {
    throw new Error(`DKIM key is ${key.asymmetricKeyType}, algorithm ${options.algorithm} needs ${expectedType}`);
  }
  if (expectedType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 1024) {
    throw new Error('DKIM RSA keys must have at least 1024 bits (2048 recommended)');
  }
  const wanted = (options.headerNames ?? DEFAULT_SIGNED_HEADERS).map((h) => h.toLowerCase());
  const now = options.now ?? Date.now;
  const withTimestamp = options.timestamp ?? true;
  const domain = options.domain.trim().toLowerCase();
  const selector = options.selector.trim();

  function headerFor({ fields, bh }: PreparedMessage): string {
    // For each name in h=, sign the last not-yet-signed instance (RFC 6376 §5.4.2).
    const used = new Set<number>();
    const signedNames: string[] = [];
    let signedData = '';
    for (const name of wanted) {
      for (let i = fields.length - 1; i >= 0; i--) {
        if (used.has(i) || fields[i]!.name !== name) continue;
        used.add(i);
        signedNames.push(name);
        signedData += `${canonicalizeHeaderRelaxed(fields[i]!.field)}\r\n`;
        break;
      }
    }
    const tags = [`v=1;`, `a=${options.algorithm};`, `c=relaxed/relaxed;`, `d=${domain};`, `s=${selector};`];
    if (withTimestamp) tags.push(`t=${Math.floor(now() / 1000)};`);
    // h= may be folded around its colons (RFC 6376 §3.5): one piece per name.
    const names = signedNames.map(
      (name, i) => (i === 0 ? 'h=' : '') + name + (i === signedNames.length - 1 ? ';' : ':'),
    );
    const folder = new HeaderFolder('DKIM-Signature:');
    for (const tag of tags) folder.add(tag, ' ');
    for (let i = 0; i < names.length; i++) folder.add(names[i] as string, i === 0 ? ' ' : '');
    folder.add(`bh=${bh};`, ' ');
    folder.add('b=', ' ');
    const value = folder.text.slice('DKIM-Signature:'.length);
    signedData += canonicalizeHeaderRelaxed(`DKIM-Signature:${value}`);
    let signature: Buffer;
    if (options.algorithm === 'rsa-sha256') {
      signature = cryptoSign('sha256', Buffer.from(signedData, 'latin1'), key);
    } else {
      // RFC 8463: Ed25519 (PureEdDSA) over the SHA-256 hash of the canonicalised header data.
      signature = cryptoSign(null, createHash('sha256').update(signedData, 'latin1').digest(), key);
    }
    // b= is base64 with folding whitespace allowed anywhere: lines filled up to 78 characters.
    const b64 = signature.toString('base64');
    let folded = '';
    let room = Math.max(HEADER_LINE - folder.lineLength, 0);
    for (let i = 0; i < b64.length; ) {
      if (room <= 0) {
        folded += '\r\n ';
        room = HEADER_LINE - 1;
      }
      folded += b64.slice(i, i + room);
      i += room;
      room = 0;
    }
    return `DKIM-Signature:${value}${folded}\r\n`;
  }

  const signatureHeader = (raw: Buffer): string => headerFor(prepareMessage(raw));

  const signer: DkimSigner = {
    algorithm: options.algorithm,
    signatureHeader,
    sign(raw: Buffer): Buffer {
      const header = signatureHeader(raw);
      const out = Buffer.allocUnsafe(header.length + raw.length);
      out.write(header, 0, 'latin1');
      raw.copy(out, header.length);
      return out;
    },
  };
  const { now: _clock, ...spec } = options;
  specs.set(signer, { spec, now });
  if (!wanted.includes('dkim-signature')) chainable.set(signer, headerFor);
  return signer;
}

/** What every signature of one message shares: its header fields, parsed, and its relaxed body hash. */
interface PreparedMessage {
  fields: { name: string; field: string }[];
  bh: string;
}

function prepareMessage(raw: Buffer): PreparedMessage {
  let split = raw.indexOf(CRLF_CRLF);
  if (split < 0) split = raw.length;
  return { fields: headerFields(raw.toString('latin1', 0, split)), bh: relaxedBodyHash(raw, split + 4) };
}

/**
 * Signers made by createDkimSigner that do not sign DKIM-Signature fields themselves: a signature added before
 * theirs changes nothing they sign, so several of them can sign one parse of the message.
 */
const chainable = new WeakMap<DkimSigner, (message: PreparedMessage) => string>();

/**
 * The DKIM-Signature lines that `signers` add to `raw` when each signs in turn (the last one's first) — what
 * `signers.reduce((m, s) => s.sign(m), raw)` prepends — with the header parsed and the body hashed once for all
 * of them (dual Ed25519 + RSA signing pays one body hash, not two).
 */
export function chainSignatureHeaders(signers: readonly DkimSigner[], raw: Buffer): string {
  const direct = signers.map((signer) => chainable.get(signer));
  if (direct.some((f) => !f)) {
    let message = raw;
    let prefix = '';
    for (const signer of signers) {
      const header = signer.signatureHeader(message);
      prefix = header + prefix;
      message = Buffer.concat([Buffer.from(header, 'latin1'), message]);
    }
    return prefix;
  }
  const prepared = prepareMessage(raw);
  let prefix = '';
  for (const headerFor of direct) prefix = (headerFor as (m: PreparedMessage) => string)(prepared) + prefix;
  return prefix;
}

/** `raw` with `prefix` (header lines) in front, in one allocation. */
export function prependHeaders(prefix: string, raw: Buffer): Buffer {
  const out = Buffer.allocUnsafe(prefix.length + raw.length);
  out.write(prefix, 0, 'latin1');
  raw.copy(out, prefix.length);
  return out;
}

/** `raw` signed by each signer in turn: the result of `signers.reduce((m, s) => s.sign(m), raw)`. */
export function signChain(signers: readonly DkimSigner[], raw: Buffer): Buffer {
  return signers.length === 0 ? raw : prependHeaders(chainSignatureHeaders(signers, raw), raw);
}

/** The DNS TXT record publishing the public half of `privateKeyPem` (`v=DKIM1; k=rsa|ed25519; p=…`). */
export function dkimDnsRecord(privateKeyPem: string): string {
  const publicKey = createPublicKey(createPrivateKey(privateKeyPem));
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  if (publicKey.asymmetricKeyType === 'ed25519') {
    // RFC 8463 §4.2: the raw 32-byte public key, not the SPKI structure.
    return `v=DKIM1; k=ed25519; p=${spki.subarray(spki.length - 32).toString('base64')}`;
  }
  return `v=DKIM1; k=rsa; p=${spki.toString('base64')}`;
}
