import type { LabelHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: htmlFor is passed by the caller.
  return <label className={cn('block text-sm font-medium text-slate-800', className)} {...props} />;
}

/** An inline validation or error message under a field. */
export function FieldError({ id, children }: { id?: string; children?: string | null }) {
  if (!children) return null;
  return (
    <p id={id} className="mt-1.5 text-sm text-red-700" role="alert">
      {children}
    </p>
  );
}
