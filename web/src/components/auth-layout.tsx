import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';

/** The frame of every /auth page: logo, a card with the title, and the form. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useI18n();
  usePageTitle(title);
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50 to-white">
      <header className="px-4 py-6 sm:px-6">
        <Link to="/" aria-label={t('nav.homeLabel')} className="inline-block">
          <Logo />
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-16 sm:items-center">
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-xl shadow-brand-900/5 sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {subtitle ? <p className="mt-2 text-sm text-slate-600">{subtitle}</p> : null}
          <div className="mt-8">{children}</div>
        </div>
      </main>
    </div>
  );
}

/** A success/info or error banner inside an auth form. */
export function FormMessage({ tone, children }: { tone: 'error' | 'success'; children: ReactNode }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={
        tone === 'error'
          ? 'rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800'
          : 'rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900'
      }
    >
      {children}
    </div>
  );
}
