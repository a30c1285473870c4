import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n';
import { toast } from '@/stores/app-store';

/** Copies `text` to the clipboard and says so (pt-BR toast); falls back to selecting nothing on failure. */
export function CopyButton({ text, label, testId }: { text: string; label?: string; testId?: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="outline"
      size="sm"
      data-testid={testId}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
          toast({ title: t('apiKeys.copied'), variant: 'success' });
        } catch {
          toast({ title: t('apiKeys.copyFailed'), description: t('apiKeys.copyManually'), variant: 'error' });
        }
      }}
    >
      {copied ? t('apiKeys.copiedShort') : (label ?? t('apiKeys.copy'))}
    </Button>
  );
}
