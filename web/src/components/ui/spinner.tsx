import { cn } from '@/lib/cn';
import { useI18n } from '@/lib/i18n';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  const { t } = useI18n();
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-slate-600', className)}>
      <svg className="h-5 w-5 animate-spin text-brand-700" viewBox="0 0 24 24" fill="none" aria-hidden="true">
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.2" strokeWidth="4" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
      </svg>
      {label ? <span className="text-sm">{label}</span> : <span className="sr-only">{t('common.loadingShort')}</span>}
    </span>
  );
}
