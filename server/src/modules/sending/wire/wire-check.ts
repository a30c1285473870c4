/**
 * Test support of the wire-conformance suite (ADR 0011): what a message must look like byte by byte on the wire,
 * and its DKIM verification by mailauth (an independent implementation) against keys published through a
 * resolver stub.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, type DkimSigner, dkimDnsRecord } from '../dkim/dkim-signer';
import { recordsResolver, verifyDkim } from '../testing/dkim-check';

export const DKIM_DOMAIN = 'padaria.com.br';

/** An RSA-2048 and an Ed25519 signer, as the worker configures them (worker/sending-runtime.ts createDkimSigners). */
export function wireSigners(): { signers: DkimSigner[]; records: Map<string, string> } {
  const rsa = String(
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  const ed = String(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const headerNames = [...DEFAULT_SIGNED_HEADERS, 'feedback-id', 'reply-to'];
  return {
    signers: [
      createDkimSigner({
        domain: DKIM_DOMAIN,
        selector: 'carteiro',
        privateKeyPem: rsa,
        algorithm: 'rsa-sha256',
        headerNames,
      }),
      createDkimSigner({
        domain: DKIM_DOMAIN,
        selector: 'carteiro-ed',
        privateKeyPem: ed,
        algorithm: 'ed25519-sha256',
        headerNames,
      }),
    ],
    records: new Map([
      [`carteiro._domainkey.${DKIM_DOMAIN}`, dkimDnsRecord(rsa)],
      [`carteiro-ed._domainkey.${DKIM_DOMAIN}`, dkimDnsRecord(ed)],
    ]),
  };
}

/**
 * Every DKIM problem of `raw`: each signature must pass and its h= must cover `covered` (by default both
 * List-Unsubscribe headers, which every marketing message carries; a system or transactional message has none).
 */
export async function dkimProblems(
  raw: Buffer,
  records: Map<string, string>,
  expected = 2,
  covered: readonly string[] = ['list-unsubscribe', 'list-unsubscribe-post'],
): Promise<string[]> {
  const results = await verifyDkim(raw, recordsResolver(records));
  const problems: string[] = [];
  if (results.length !== expected) problems.push(`${results.length} DKIM results, expected ${expected}`);
  for (const r of results) {
    if (r.status.result !== 'pass') problems.push(`DKIM ${r.selector}: ${r.status.result} (${r.status.comment ?? ''})`);
    const keys = (r.signingHeaders?.keys ?? '').toLowerCase().split(/:\s*/);
    for (const h of covered) {
      if (!keys.includes(h)) problems.push(`DKIM ${r.selector}: h= does not cover ${h}`);
    }
  }
  return problems;
}

const HEADER_NAME = /^[!-9;-~]+$/;

/**
 * Byte-level problems of one message as sent in SMTP DATA (before dot-stuffing): only CRLF line breaks, no line
 * over 998 octets, body lines at most 78 (quoted-printable: 76), header fields `name: value` in printable ASCII
 * with folded lines starting with a space or tab and never blank, the header block ended by an empty line,
 * the message ended by CRLF, no NUL anywhere.
 */
export function wireProblems(raw: Buffer): string[] {
  const problems: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (b === 0x0a && raw[i - 1] !== 0x0d) problems.push(`bare LF at byte ${i}`);
    if (b === 0x0d && raw[i + 1] !== 0x0a) problems.push(`bare CR at byte ${i}`);
    if (b === 0) problems.push(`NUL at byte ${i}`);
    if (problems.length > 5) return problems;
  }
  if (raw.length < 2 || raw[raw.length - 2] !== 0x0d || raw[raw.length - 1] !== 0x0a) {
    problems.push('message does not end with CRLF');
  }
  const text = raw.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return [...problems, 'no empty line after the header block'];
  const headerLines = text.slice(0, split).split('\r\n');
  headerLines.forEach((line, n) => {
    if (line.length > 998) problems.push(`header line ${n + 1} has ${line.length} octets`);
    else if (line.length > 78 && !/^(DKIM-Signature|Feedback-ID|List-Unsubscribe):/i.test(line)) {
      // Feedback-ID and a List-Unsubscribe URL are single tokens that cannot be folded (still ≤ 998).
      problems.push(`header line ${n + 1} has ${line.length} characters (> 78): ${line.slice(0, 40)}`);
    }
    if (!/^[\t\x20-\x7e]*$/.test(line)) problems.push(`header line ${n + 1} is not printable ASCII`);
    if (line[0] === ' ' || line[0] === '\t') {
      if (n === 0) problems.push('the first header line is a continuation');
      if (line.trim() === '') problems.push(`header line ${n + 1} is blank folding`);
    } else {
      const colon = line.indexOf(':');
      if (colon <= 0 || !HEADER_NAME.test(line.slice(0, colon)))
        problems.push(`header line ${n + 1} has no field name`);
    }
  });
  const bodyLines = text.slice(split + 4).split('\r\n');
  bodyLines.forEach((line, n) => {
    if (line.length > 78) problems.push(`body line ${n + 1} has ${line.length} characters`);
  });
  return problems;
}

/** The header fields of a message (unfolded), lower-case names, in order. */
export function headerFields(raw: Buffer): { name: string; value: string }[] {
  const head = raw.toString('latin1').split('\r\n\r\n')[0] ?? '';
  return head
    .replace(/\r\n[ \t]/g, ' ')
    .split('\r\n')
    .map((line) => {
      const colon = line.indexOf(':');
      return { name: line.slice(0, colon).toLowerCase(), value: line.slice(colon + 1).trim() };
    });
}

/** The body (after the header block) of a message. */
export function bodyOf(raw: Buffer): Buffer {
  const at = raw.indexOf('\r\n\r\n');
  return raw.subarray(at + 4);
}
