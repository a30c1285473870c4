import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { useI18n } from '@/lib/i18n';
import { usePublicConfig } from '@/lib/public-config';

/** Public footer: © current year, privacy policy, terms of use, contact mailto (address from /api/public-config). */
export function SiteFooter() {
  const { t } = useI18n();
  const { contactEmail } = usePublicConfig();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div className="space-y-2">
          <Logo />
          <p className="text-sm text-slate-500">{t('landing.footer.rights', { year })}</p>
        </div>
        <nav aria-label={t('landing.footer.navLabel')} className="flex flex-col gap-3 text-sm sm:flex-row sm:gap-6">
          <Link to="/privacy-policy" className="font-medium text-slate-700 hover:text-brand-700">
            {t('landing.footer.privacy')}
          </Link>
          <Link to="/terms-of-use" className="font-medium text-slate-700 hover:text-brand-700">
            {t('landing.footer.terms')}
          </Link>
          <a href={`mailto:${contactEmail}`} className="font-medium text-slate-700 hover:text-brand-700">
            {t('landing.footer.contact')}: <span className="break-all text-brand-700">{contactEmail}</span>
          </a>
        </nav>
      </div>
    </footer>
  );
}
