import { cn } from '@/lib/cn';

/** The Carteiro mark: a white envelope on a purple tile, with the word mark. */
export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2', className)}>
      <svg viewBox="0 0 32 32" className="h-8 w-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill={inverted ? '#ffffff' : '#6d28d9'} />
        <path
          d="M7 11.5A1.5 1.5 0 0 1 8.5 10h15a1.5 1.5 0 0 1 1.5 1.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 7 20.5z"
          fill={inverted ? '#6d28d9' : '#ffffff'}
        />
        <path
          d="m8 11 8 6 8-6"
          fill="none"
          stroke={inverted ? '#ffffff' : '#6d28d9'}
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
      <span className={cn('text-lg font-extrabold tracking-tight', inverted ? 'text-white' : 'text-slate-900')}>
        Carteiro
      </span>
    </span>
  );
}
