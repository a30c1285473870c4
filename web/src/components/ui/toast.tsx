import { cn } from '@/lib/cn';

export interface ToastViewProps {
  title?: string;
  description?: string;
  variant?: 'default' | 'success' | 'error';
  closeLabel: string;
  onClose: () => void;
}

const accents = {
  default: 'border-l-brand-600',
  success: 'border-l-emerald-500',
  error: 'border-l-red-600',
} as const;

/**
 * One toast card with a close button. Errors are announced assertively, others politely. Below `lg` (phones,
 * tablets) the card fits inside the app's header bar (56 px: one line of title, one of description, each cut with
 * an ellipsis — the whole text is still what is announced), so it never covers the page's title; on a desktop,
 * in the sidebar column, the text wraps in full.
 */
export function ToastView({ title, description, variant = 'default', closeLabel, onClose }: ToastViewProps) {
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn(
        'pointer-events-auto flex w-full items-center gap-2 rounded-xl border border-slate-200 border-l-4 bg-white px-3 py-1.5 shadow-lg',
        'lg:items-start lg:gap-3 lg:p-4',
        'animate-[toast-in_180ms_ease-out]',
        accents[variant],
      )}
    >
      <div className="min-w-0 flex-1">
        {title ? <p className="truncate text-sm font-semibold text-slate-900 lg:whitespace-normal">{title}</p> : null}
        {description ? (
          <p className="truncate text-xs text-slate-600 lg:mt-1 lg:whitespace-normal lg:text-sm">{description}</p>
        ) : null}
      </div>
      <button
        type="button"
        aria-label={closeLabel}
        onClick={onClose}
        className="-m-1 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
      >
        <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
          <path d="M5.28 4.22a.75.75 0 0 0-1.06 1.06L8.94 10l-4.72 4.72a.75.75 0 1 0 1.06 1.06L10 11.06l4.72 4.72a.75.75 0 1 0 1.06-1.06L11.06 10l4.72-4.72a.75.75 0 0 0-1.06-1.06L10 8.94z" />
        </svg>
      </button>
    </div>
  );
}
