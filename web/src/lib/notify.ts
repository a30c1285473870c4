import { isApiError } from '@/lib/api-client';
import { errorMessage, getLocale, translate } from '@/lib/i18n';
import { toast } from '@/stores/app-store';
import '@/lib/i18n/errors-pt-BR';

/** The user's message for any failure: the ApiError's code in the current locale, else the generic one. */
export function messageOf(error: unknown): string {
  if (isApiError(error)) {
    // The server writes specific pt-BR messages ("O valor mínimo de recarga é R$ 10,00."): the best text in pt-BR.
    if (getLocale() === 'pt-BR' && error.message) return error.message;
    return errorMessage(getLocale(), error.code, error.message);
  }
  console.warn('falha inesperada', error);
  return translate(getLocale(), 'common.error');
}

/** A red toast with the failure's pt-BR message. */
export function toastError(title: string, error: unknown): void {
  toast({ variant: 'error', title, description: messageOf(error) });
}

export function toastSuccess(title: string, description?: string): void {
  toast({ variant: 'success', title, description });
}
