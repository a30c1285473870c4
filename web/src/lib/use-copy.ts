import { useCallback, useEffect, useState } from 'react';
import { useI18n } from '@/lib/i18n';
import { toast } from '@/stores/app-store';

/** How long a copy button says "Copiado" before it goes back to its label. */
export const COPIED_FEEDBACK_MS = 2500;

/**
 * The app's one copy-to-clipboard: writes the text, says so in a toast and flips `copied` for a moment (buttons
 * show "Copiado"). When the browser refuses (plain http, permissions) it selects `field`, if given, so the person
 * can copy by hand, and says so.
 */
export function useCopyToClipboard(): {
  copied: boolean;
  copy: (text: string, field?: HTMLInputElement | HTMLTextAreaElement | null) => Promise<boolean>;
} {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = useCallback(
    async (text: string, field?: HTMLInputElement | HTMLTextAreaElement | null) => {
      try {
        if (!navigator.clipboard) throw new Error('clipboard API unavailable');
        await navigator.clipboard.writeText(text);
      } catch {
        field?.select();
        toast({ title: t('copy.failed'), description: t('copy.manually'), variant: 'error' });
        return false;
      }
      setCopied(true);
      toast({ title: t('copy.copied'), variant: 'success' });
      return true;
    },
    [t],
  );
  return { copied, copy };
}
