import { useState } from 'react';
import { errorText } from '@/lib/error-text';

/** Runs a form submission, tracking `pending` and turning failures into the user's message (never swallowed). */
export function useSubmit() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(task: () => Promise<void>) {
    setPending(true);
    setError(null);
    try {
      await task();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setPending(false);
    }
  }

  return { pending, error, setError, run };
}
