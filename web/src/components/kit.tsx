import { formatDate as sharedFormatDate, formatDateTime as sharedFormatDateTime } from '@carteiro/shared';
import type { ReactNode, Ref, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { errorText } from '@/lib/error-text';
import '@/lib/i18n/app-messages';
import { type Locale, useI18n } from '@/lib/i18n';

/** CLDR plural category of `count` reduced to the two forms the catalogues carry (`.one` / `.other`). */
export function pluralForm(locale: Locale, count: number): 'one' | 'other' {
  return new Intl.PluralRules(locale).select(count) === 'one' ? 'one' : 'other';
}

const numberFormat = new Intl.NumberFormat('pt-BR');

/** shared/src/dates.ts's forms, with a dash for an instant that is not there. */
export const formatDate = (iso: string | null | undefined) => (iso ? sharedFormatDate(iso) : '—');
export const formatDateTime = (iso: string | null | undefined) => (iso ? sharedFormatDateTime(iso) : '—');
export const formatNumber = (value: number) => numberFormat.format(value);

export function LoadingPanel({ label }: { label?: string }) {
  const { t } = useI18n();
  return (
    <div className="flex justify-center py-16" aria-busy="true">
      <Spinner label={label ?? t('common.loading')} />
    </div>
  );
}

export function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useI18n();
  return (
    <Card className="border-red-200 bg-red-50 p-6 text-center" role="alert">
      <p className="font-semibold text-red-800">{t('lists.kit.loadFailed')}</p>
      <p className="mt-1 text-sm text-red-700">{errorText(error)}</p>
      {onRetry ? (
        <Button variant="outline" size="sm" className="mt-4" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      ) : null}
    </Card>
  );
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        'block rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm',
        'focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200 sm:text-sm',
        // Plain class joining cannot override a utility: the defaults apply only when the caller sets none.
        /(^|\s)(sm:)?h-/.test(className ?? '') ? null : 'h-11',
        /(^|\s)(sm:)?w-/.test(className ?? '') ? null : 'w-full',
        className,
      )}
      {...props}
    />
  );
}

export function Textarea({
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return (
    <textarea
      className={cn(
        'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm',
        'focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200 sm:text-sm',
        className,
      )}
      {...props}
    />
  );
}

/** The round check mark of a finished step (e-mail confirmed, top-up paid); the colours come from the caller. */
export function SuccessMark({ className }: { className: string }) {
  return (
    <span className={cn('flex h-16 w-16 items-center justify-center rounded-full', className)}>
      <svg
        viewBox="0 0 24 24"
        className="h-8 w-8"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        aria-hidden="true"
      >
        <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}

export function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <Card className="p-4">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-bold text-slate-900">{value}</p>
      {hint ? <p className="mt-0.5 text-xs text-slate-500">{hint}</p> : null}
    </Card>
  );
}

/** A responsive table wrapper: scrolls sideways on phones instead of overflowing the page. */
export function TableShell({ children }: { children: ReactNode }) {
  return (
    <Card className="overflow-hidden">
      <div className="overflow-x-auto">
        <table className="w-full min-w-[36rem] text-left text-sm">{children}</table>
      </div>
    </Card>
  );
}

export const th = 'bg-slate-50 px-4 py-3 text-xs font-semibold uppercase tracking-wide text-slate-500';
export const td = 'border-t border-slate-100 px-4 py-3 align-middle text-slate-700';

/** Downloads a same-origin URL (CSV export, JSON export) through a temporary link. */
export function downloadUrl(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.download = '';
  document.body.append(a);
  a.click();
  a.remove();
}

/** A side panel (contact detail, forms): a modal dialog sliding from the right, full width on phones. */
export function Drawer({
  open,
  title,
  onClose,
  children,
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const { t } = useI18n();
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40 flex justify-end">
      <button
        type="button"
        aria-label={t('common.close')}
        className="absolute inset-0 bg-slate-900/40"
        onClick={onClose}
      />
      <section
        role="dialog"
        aria-modal="true"
        aria-label={title}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
        className={cn(
          'relative flex h-full w-full flex-col overflow-y-auto bg-white shadow-2xl',
          wide ? 'sm:max-w-3xl' : 'sm:max-w-lg',
        )}
      >
        <header className="sticky top-0 z-10 flex items-center justify-between gap-4 border-b border-slate-200 bg-white px-5 py-4">
          <h2 className="truncate text-lg font-bold text-slate-900">{title}</h2>
          <Button variant="ghost" size="icon" aria-label={t('common.close')} onClick={onClose}>
            <svg
              viewBox="0 0 24 24"
              className="h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              aria-hidden="true"
            >
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </Button>
        </header>
        <div className="flex-1 p-5">{children}</div>
      </section>
    </div>
  );
}
