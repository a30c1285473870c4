import { type ReactNode, useEffect, useId, useRef } from 'react';
import { cn } from '@/lib/cn';

export interface AlertDialogProps {
  open: boolean;
  title: string;
  description?: string;
  /** Called on Esc, overlay click or the cancel button. */
  onCancel: () => void;
  children?: ReactNode;
  /** The buttons row. */
  footer: ReactNode;
}

/**
 * A modal alert dialog (role="alertdialog"): focus moves into it (to the element with `data-autofocus`, else the
 * first button), Tab stays inside, Esc and the overlay cancel, and focus returns to where it was on close.
 */
export function AlertDialog({ open, title, description, onCancel, children, footer }: AlertDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const root = panel.current;
    const target = root?.querySelector<HTMLElement>('[data-autofocus]') ?? root?.querySelector<HTMLElement>('button');
    target?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, [open]);

  if (!open) return null;

  function onKeyDown(event: React.KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCancel();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = panel.current.querySelectorAll<HTMLElement>(
      'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])',
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the key handler traps focus for the dialog inside it.
    <div className="fixed inset-0 z-50" onKeyDown={onKeyDown}>
      <div
        className="fixed inset-0 bg-slate-950/50 backdrop-blur-[2px]"
        data-testid="dialog-overlay"
        onClick={onCancel}
        aria-hidden="true"
      />
      <div
        ref={panel}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        className={cn(
          'fixed top-1/2 left-1/2 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2',
          'rounded-2xl bg-white p-6 shadow-2xl animate-[dialog-in_150ms_ease-out]',
        )}
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description ? (
          <p id={descriptionId} className="mt-2 text-sm leading-relaxed text-slate-600">
            {description}
          </p>
        ) : null}
        {children}
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div>
      </div>
    </div>
  );
}
