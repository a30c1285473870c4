/**
 * E-mail normalisation shared by the server (import, API) and the web (forms), so both agree on what "the same
 * address" is.
 *
 * Choice: the whole address is lower-cased, local part included. RFC 5321 lets a server treat the local part
 * as case-sensitive, but no mailbox provider our senders reach does, and a list where "Joao@x" and "joao@x"
 * are two contacts mails the same person twice. IDN domains are converted to punycode (A-labels) with the
 * WHATWG URL parser, which exists in browsers and Node alike.
 */

import { type ValidationData, type ValidationKey, validationText } from './validation-texts';

const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII range check
const NON_ASCII = /[^\x00-\x7f]/;

function domainToAscii(domain: string): string | null {
  if (!NON_ASCII.test(domain)) return domain;
  try {
    const host = new URL(`http://${domain}/`).hostname;
    return host || null;
  } catch {
    return null;
  }
}

/** Trims, lower-cases and converts an IDN domain to punycode; null when the result is not a valid address. */
export function normaliseEmail(text: string): string | null {
  if (typeof text !== 'string') return null;
  let value = text.trim();
  if (value.startsWith('<') && value.endsWith('>')) value = value.slice(1, -1).trim();
  if (value.length === 0 || value.length > 320) return null;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return null;
  const local = value.slice(0, at).toLowerCase();
  const domain = domainToAscii(
    value
      .slice(at + 1)
      .toLowerCase()
      .replace(/\.$/, ''),
  );
  if (!domain) return null;
  const email = `${local}@${domain}`;
  return isValidNormalisedEmail(local, domain, email) ? email : null;
}

function isValidNormalisedEmail(local: string, domain: string, email: string): boolean {
  if (email.length > 254 || local.length > 64 || domain.length > 253) return false;
  if (!LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  for (const label of labels) if (!DOMAIN_LABEL.test(label)) return false;
  return TLD.test(labels[labels.length - 1] as string);
}

/** True when the text normalises to a valid address. */
export function isValidEmail(text: string): boolean {
  return normaliseEmail(text) !== null;
}

/**
 * Why a text is not a valid address, as a validation text's key (shared/src/validation-texts.ts), for the person who
 * typed or imported it (rejected-rows report, forms); null when `normaliseEmail` accepts it. The checks follow the
 * same rules as `normaliseEmail`, most telling first, and fall back to "E-mail inválido" for anything they do not name.
 */
export function emailProblem(text: string): { key: ValidationKey; data?: ValidationData } | null {
  if (normaliseEmail(text) !== null) return null;
  let value = typeof text === 'string' ? text.trim() : '';
  if (value.startsWith('<') && value.endsWith('>')) value = value.slice(1, -1).trim();
  if (value === '') return { key: 'emailEmpty' };
  if (/\s/.test(value)) return { key: 'emailHasSpace' };
  const ats = value.split('@').length - 1;
  if (ats === 0) return { key: 'emailNoAt' };
  if (ats > 1) return { key: 'emailManyAt' };
  if (value.length > 254) return { key: 'emailTooLong' };
  const [local = '', domainText = ''] = value.split('@');
  if (local === '') return { key: 'emailNoLocal' };
  if (domainText === '') return { key: 'emailNoDomain' };
  if (NON_ASCII.test(local)) return { key: 'emailLocalAccent' };
  if (local.length > 64) return { key: 'emailLocalTooLong' };
  if (/^\.|\.$|\.\./.test(local)) return { key: 'emailLocalDots' };
  const badLocal = [...local.toLowerCase()].find((ch) => !/[a-z0-9!#$%&'*+/=?^_`{|}~.-]/.test(ch));
  if (badLocal) return { key: 'emailLocalChar', data: { char: badLocal } };
  const domain = domainToAscii(domainText.toLowerCase().replace(/\.$/, ''));
  if (!domain) return { key: 'emailDomainChar' };
  const labels = domain.split('.');
  if (labels.length < 2) return { key: 'emailNoTld' };
  if (labels.some((label) => label === '')) return { key: 'emailDomainDots' };
  const tld = labels[labels.length - 1] as string;
  if (!TLD.test(tld)) return { key: 'emailBadTld', data: { tld } };
  if (labels.some((label) => !DOMAIN_LABEL.test(label))) return { key: 'emailDomainLabel' };
  return { key: 'emailInvalid' };
}

/** `emailProblem`'s text in pt-BR without its final period, as the rejected-rows report writes it. */
export function describeEmailProblem(text: string): string | null {
  const problem = emailProblem(text);
  return problem ? validationText(problem.key, problem.data).replace(/\.$/, '') : null;
}
