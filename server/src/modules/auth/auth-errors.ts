import type { ErrorCode } from '@carteiro/shared';
import { AppError } from '../../http/app-error';

/**
 * Turns a non-2xx better-auth answer into our error (spec §8 codes, pt-BR messages). Unknown e-mail and wrong
 * password become the same `invalid-credential` 401 with the same body, so an answer never tells whether an
 * address is registered.
 */
export function mapAuthError(
  path: string,
  status: number,
  body: { code?: string; message?: string } | null,
  minPasswordLength: number,
  maxPasswordLength: number,
): AppError {
  const code = body?.code ?? '';
  const message = body?.message ?? '';
  const error = (c: ErrorCode, text?: string) => new AppError(c, text);

  if (status === 429) return error('too-many-requests');
  switch (code) {
    case 'INVALID_EMAIL_OR_PASSWORD':
    case 'USER_NOT_FOUND':
    case 'CREDENTIAL_ACCOUNT_NOT_FOUND':
      if (path.startsWith('/sign-in')) return error('invalid-credential');
      break;
    case 'INVALID_PASSWORD':
      if (path.startsWith('/sign-in')) return error('invalid-credential');
      return error('wrong-password', 'Senha atual incorreta.');
    case 'INVALID_EMAIL':
      return error('invalid-email');
    case 'PASSWORD_TOO_SHORT':
    case 'PASSWORD_TOO_LONG':
      return error(
        'password-does-not-meet-requirements',
        `A senha deve ter entre ${minPasswordLength} e ${maxPasswordLength} caracteres.`,
      );
    case 'USER_ALREADY_EXISTS':
    case 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL':
      return error('email-already-in-use');
    case 'TOKEN_EXPIRED':
      return error('expired-action-code');
    case 'INVALID_TOKEN':
      return error('invalid-action-code');
    case 'SESSION_NOT_FRESH':
    case 'SESSION_EXPIRED':
      return error('requires-recent-login');
    case 'USER_DISABLED':
      return error('user-disabled');
    case 'EMAIL_NOT_VERIFIED':
      return error('forbidden', 'Confirme seu e-mail antes de continuar.');
    case 'INVALID_ORIGIN':
    case 'MISSING_OR_NULL_ORIGIN':
    case 'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED':
    case 'INVALID_CALLBACK_URL':
    case 'INVALID_REDIRECT_URL':
    case 'INVALID_ERROR_CALLBACK_URL':
    case 'INVALID_NEW_USER_CALLBACK_URL':
      return error('csrf_rejected');
    case 'VALIDATION_ERROR':
      if (/email/i.test(message)) return error('invalid-email');
      return error('validation_failed');
  }
  if (status === 401) return error('unauthenticated');
  if (status === 403) return error('forbidden');
  if (status === 404) return error('not_found');
  if (status === 422) return error('validation_failed');
  if (status >= 500) return error('internal_error');
  return error('bad_request');
}
