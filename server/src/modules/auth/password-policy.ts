import { AppError } from '../../http/app-error';
import { COMMON_PASSWORDS_LIST } from './common-passwords';

/**
 * Password policy (ADR 0017, OWASP ASVS 5.0 §6.2 / NIST SP 800-63B §3.1.1.2): a length range (checked by
 * better-auth from MIN_PASSWORD_LENGTH / MAX_PASSWORD_LENGTH), no composition rules, and no password from the
 * list of common and breached passwords shipped with the product (offline, no network call).
 */
let commonPasswords: Set<string> | null = null;

function commonSet(): Set<string> {
  commonPasswords ??= new Set(COMMON_PASSWORDS_LIST.split('\n'));
  return commonPasswords;
}

/** True when the password (compared case-insensitively, surrounding spaces ignored) is on the shipped list. */
export function isCommonPassword(password: string): boolean {
  return commonSet().has(password.trim().toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE =
  'Essa senha é muito comum ou já apareceu em vazamentos de dados. Escolha outra — uma frase com algumas palavras é fácil de lembrar e difícil de adivinhar.';

/** The body field that carries the new password, per better-auth path that sets one. */
const PASSWORD_FIELD_BY_PATH: Record<string, string> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
};

/** Throws `password-does-not-meet-requirements` (400, pt-BR) when a path that sets a password gets a common one. */
export function assertPasswordAllowed(path: string, body: Record<string, unknown> | undefined): void {
  const field = PASSWORD_FIELD_BY_PATH[path];
  if (!field || !body || typeof body !== 'object') return;
  const value = body[field];
  if (typeof value === 'string' && isCommonPassword(value)) {
    throw new AppError('password-does-not-meet-requirements', COMMON_PASSWORD_MESSAGE, { field });
  }
}
