import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { buttonVariants } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';

/** The pt-BR 404 page, for unknown routes and missing resources on public pages. */
export function NotFound() {
  const { t } = useI18n();
  usePageTitle(t('notFound.title'));
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 text-center">
      <Link to="/" aria-label={t('nav.homeLabel')}>
        <Logo />
      </Link>
      <p className="mt-10 text-6xl font-extrabold tracking-tight text-brand-700">404</p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">{t('notFound.title')}</h1>
      <p className="mt-2 max-w-sm text-slate-600">{t('notFound.body')}</p>
      <Link to="/" className={buttonVariants({ className: 'mt-8' })}>
        {t('notFound.home')}
      </Link>
    </main>
  );
}
