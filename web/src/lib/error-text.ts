import { isApiError, retryInText } from '@/lib/api-client';
import { errorMessage, getLocale, type Locale, translate } from '@/lib/i18n';
import '@/lib/i18n/errors-pt-BR';

/**
 * The one text of a failure, wherever it shows (a toast, ErrorPanel, a form's error line):
 * - an API error in pt-BR: the server's own message — it names the field, the Liquid line, the missing amount, and
 *   a rate limit's wait;
 * - in another locale: the catalogue's text for its code (the server's message when the code has none), and a
 *   rate limit still says how long to wait (Retry-After);
 * - a code alone (`{ code }`, e.g. a redirect's `?error=`): the catalogue's text for it;
 * - an Error we threw with a translated message: that message; anything else: the generic text.
 */
export function errorText(error: unknown, locale: Locale = getLocale()): string {
  if (isApiError(error)) {
    if (locale === 'pt-BR' && error.message) return error.message;
    const text = errorMessage(locale, error.code, error.message);
    return error.retryAfterMs === null ? text : `${text} ${retryInText(locale, error.retryAfterMs)}`;
  }
  if (isCoded(error)) return errorMessage(locale, error.code);
  // A plain Error is one of ours (`throw new Error(t('…'))`); a TypeError and the like is a bug, not a message.
  if (error instanceof Error && error.constructor === Error && error.message) return error.message;
  console.warn('falha inesperada', error);
  return translate(locale, 'common.error');
}

function isCoded(value: unknown): value is { code: string } {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string';
}
