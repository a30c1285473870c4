import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { buttonVariants } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n';

/** The sticky public top bar: logo + tagline, "Preços" anchor (hidden on small screens), "Entrar". */
export function SiteHeader({ showPricingLink = true }: { showPricingLink?: boolean }) {
  const { t } = useI18n();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Link
          to="/"
          className="flex min-w-0 flex-col sm:flex-row sm:items-center sm:gap-3"
          // No aria-label: the name is the visible words (logo + tagline), as speech-input users say what they see
          // (WCAG 2.5.3).
        >
          <Logo />
          <span className="truncate pl-10 text-[11px] leading-tight text-slate-500 sm:border-l sm:border-slate-200 sm:pl-3 sm:text-sm">
            {t('app.tagline')}
          </span>
        </Link>
        <nav aria-label={t('nav.mainMenu')} className="ml-auto flex items-center gap-2 sm:gap-4">
          {showPricingLink ? (
            <a
              href="/#precos"
              className="hidden rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:text-brand-700 sm:inline-block"
            >
              {t('nav.pricing')}
            </a>
          ) : null}
          <Link to="/auth/login" className={buttonVariants({ variant: 'primary', size: 'sm' })}>
            {t('nav.signIn')}
          </Link>
        </nav>
      </div>
    </header>
  );
}
