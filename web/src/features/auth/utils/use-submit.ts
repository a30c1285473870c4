import { useState } from 'react';
import { isApiError } from '@/lib/api-client';
import { useI18n } from '@/lib/i18n';
import '@/lib/i18n/errors-pt-BR';

/** Runs a form submission, tracking `pending` and turning ApiErrors into the user's message (never swallowed). */
export function useSubmit() {
  const { errorMessage, t } = useI18n();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(task: () => Promise<void>) {
    setPending(true);
    setError(null);
    try {
      await task();
    } catch (caught) {
      if (isApiError(caught)) setError(errorMessage(caught.code, caught.message));
      else {
        console.warn('falha inesperada no formulário', caught);
        setError(t('common.error'));
      }
    } finally {
      setPending(false);
    }
  }

  return { pending, error, setError, run };
}
