import { Button, type ButtonSize, type ButtonVariant } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n';
import { useCopyToClipboard } from '@/lib/use-copy';

/** A button that copies `text` (useCopyToClipboard) and reads "Copiado" for a moment after it did. */
export function CopyButton({
  text,
  label,
  copiedLabel,
  ariaLabel,
  testId,
  variant = 'outline',
  size = 'sm',
  className,
  field,
}: {
  text: string;
  label?: string;
  copiedLabel?: string;
  ariaLabel?: string;
  testId?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  /** Selected when the clipboard is refused, so the text can be copied by hand. */
  field?: () => HTMLInputElement | HTMLTextAreaElement | null;
}) {
  const { t } = useI18n();
  const { copied, copy } = useCopyToClipboard();
  return (
    <Button
      type="button"
      variant={variant}
      size={size}
      className={className}
      aria-label={ariaLabel}
      data-testid={testId}
      onClick={() => void copy(text, field?.())}
    >
      {copied ? (copiedLabel ?? t('copy.copiedShort')) : (label ?? t('copy.copy'))}
    </Button>
  );
}
