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

export const REPETITIVE_PASSWORD_MESSAGE =
  'Essa senha repete poucos caracteres (como "aaaaaaaa" ou "abababab") e é fácil de adivinhar. Escolha outra — uma frase com algumas palavras é fácil de lembrar.';
export const OWN_EMAIL_PASSWORD_MESSAGE =
  'A senha não pode conter o seu e-mail ou o nome antes do @. Escolha outra — uma frase com algumas palavras é fácil de lembrar.';

/** Fewer distinct characters than this is a repetition ("aaaaaaaa", "abababab", "12121212"), not a secret. */
const MIN_DISTINCT_CHARACTERS = 4;
/** A local part this short ("ana") is too common a word to refuse every password that contains it. */
const MIN_LOCAL_PART_CHECKED = 4;

/**
 * The context-specific words NIST SP 800-63B §3.1.1.2 asks a verifier to refuse, for the address the password
 * belongs to: the whole e-mail, or its local part (at least 4 characters), anywhere in the password.
 */
function containsOwnEmail(password: string, email: string): boolean {
  const lower = password.toLowerCase();
  const address = email.trim().toLowerCase();
  if (!address) return false;
  const local = address.split('@')[0] ?? '';
  return lower.includes(address) || (local.length >= MIN_LOCAL_PART_CHECKED && lower.includes(local));
}

/**
 * Throws `password-does-not-meet-requirements` (400, pt-BR) when a path that sets a password gets a common one,
 * a repetition of a few characters, or one that contains the account's own e-mail (`email`: the address the
 * password is for, when known — the sign-up form's, the session user's, the reset link's).
 */
export function assertPasswordAllowed(
  path: string,
  body: Record<string, unknown> | undefined,
  email: string | null = null,
): void {
  const field = PASSWORD_FIELD_BY_PATH[path];
  if (!field || !body || typeof body !== 'object') return;
  const value = body[field];
  if (typeof value !== 'string') return;
  if (isCommonPassword(value)) {
    throw new AppError('password-does-not-meet-requirements', COMMON_PASSWORD_MESSAGE, { field });
  }
  if (new Set(value.toLowerCase()).size < MIN_DISTINCT_CHARACTERS) {
    throw new AppError('password-does-not-meet-requirements', REPETITIVE_PASSWORD_MESSAGE, { field });
  }
  if (email && containsOwnEmail(value, email)) {
    throw new AppError('password-does-not-meet-requirements', OWN_EMAIL_PASSWORD_MESSAGE, { field });
  }
}

/** The address a password-setting request is for: the sign-up form's e-mail; other paths pass theirs. */
export function signUpEmail(path: string, body: Record<string, unknown> | undefined): string | null {
  return path === '/sign-up/email' && typeof body?.email === 'string' ? body.email : null;
}
