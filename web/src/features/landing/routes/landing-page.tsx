import { formatBRL } from '@carteiro/shared';
import { Link } from 'react-router';
import { SiteFooter } from '@/components/layouts/site-footer';
import { SiteHeader } from '@/components/layouts/site-header';
import { buttonVariants } from '@/components/ui/button';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { usePublicConfig } from '@/lib/public-config';
import { PricingCalculator } from '../components/pricing-calculator';

const features: Array<{ title: MessageKey; body: MessageKey; icon: string }> = [
  { title: 'landing.features.lists.title', body: 'landing.features.lists.body', icon: 'M4 6h16M4 12h16M4 18h10' },
  {
    title: 'landing.features.templates.title',
    body: 'landing.features.templates.body',
    icon: 'M4 5h16v14H4zM4 9h16M9 9v10',
  },
  {
    title: 'landing.features.calendar.title',
    body: 'landing.features.calendar.body',
    icon: 'M5 5h14v15H5zM5 10h14M9 3v4M15 3v4',
  },
  { title: 'landing.features.reports.title', body: 'landing.features.reports.body', icon: 'M5 19V10M12 19V5M19 19v-6' },
];

export function LandingPage() {
  const { t } = useI18n();
  const { priceMillis } = usePublicConfig();

  return (
    <div className="flex min-h-dvh flex-col overflow-x-clip">
      <SiteHeader />
      <main className="flex-1">
        <section className="relative isolate overflow-hidden bg-brand-800 text-white">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top_right,var(--color-brand-500),transparent_60%),radial-gradient(ellipse_at_bottom_left,var(--color-brand-950),transparent_55%)]"
          />
          <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.15fr_1fr] lg:items-center">
            <div>
              <p className="inline-flex items-center rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-brand-100 ring-1 ring-white/20">
                {t('landing.hero.eyebrow')}
              </p>
              <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
                {t('landing.hero.title')}
              </h1>
              <p className="mt-6 max-w-xl text-lg leading-relaxed text-brand-100">{t('landing.hero.subtitle')}</p>
              <div className="mt-10 flex flex-col gap-3 sm:flex-row">
                <Link to="/auth/register" className={buttonVariants({ variant: 'white', size: 'lg' })}>
                  {t('landing.hero.ctaPrimary')}
                </Link>
                <a
                  href="#precos"
                  className={buttonVariants({
                    variant: 'ghost',
                    size: 'lg',
                    className: 'text-white ring-1 ring-white/30 hover:bg-white/10',
                  })}
                >
                  {t('landing.hero.ctaSecondary')}
                </a>
              </div>
            </div>
            <HeroIllustration />
          </div>
        </section>

        <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20" aria-labelledby="recursos">
          <h2 id="recursos" className="max-w-2xl text-3xl font-bold tracking-tight text-slate-900 text-balance">
            {t('landing.features.title')}
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {features.map((feature) => (
              <li key={feature.title} className="rounded-2xl border border-slate-200 p-6">
                <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
                  <svg
                    viewBox="0 0 24 24"
                    className="h-6 w-6"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                    aria-hidden="true"
                  >
                    <path d={feature.icon} strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                </span>
                <h3 className="mt-4 font-semibold text-slate-900">{t(feature.title)}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{t(feature.body)}</p>
              </li>
            ))}
          </ul>
        </section>

        <section id="precos" className="bg-brand-700 text-white" aria-labelledby="precos-titulo">
          <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-2 lg:items-center">
            <div>
              <h2 id="precos-titulo" className="text-3xl font-bold tracking-tight sm:text-4xl">
                {t('landing.pricing.title')}
              </h2>
              <p className="mt-4 text-lg text-brand-100">{t('landing.pricing.subtitle')}</p>
              <p className="mt-8 flex items-baseline gap-2">
                <span className="text-5xl font-extrabold tracking-tight sm:text-6xl">{formatBRL(priceMillis)}</span>
                <span className="text-brand-100">{t('landing.pricing.perEmail')}</span>
              </p>
              <ul className="mt-8 space-y-3 text-brand-50">
                {(
                  [
                    'landing.pricing.bullets.noFee',
                    'landing.pricing.bullets.prepaid',
                    'landing.pricing.bullets.pix',
                  ] as const
                ).map((key) => (
                  <li key={key} className="flex items-center gap-3">
                    <svg
                      viewBox="0 0 20 20"
                      className="h-5 w-5 shrink-0 text-accent-300"
                      fill="currentColor"
                      aria-hidden="true"
                    >
                      <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0" />
                    </svg>
                    {t(key)}
                  </li>
                ))}
              </ul>
              <p className="mt-8 rounded-xl bg-white/10 p-4 text-sm leading-relaxed text-brand-50 ring-1 ring-white/20">
                {t('landing.pricing.negotiate')}
              </p>
            </div>
            <div className="space-y-6">
              <PricingCalculator priceMillis={priceMillis} />
              <Link
                to="/auth/register"
                className={buttonVariants({ variant: 'white', size: 'lg', className: 'w-full' })}
              >
                {t('landing.pricing.cta')}
              </Link>
            </div>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}

/** A decorative campaign-report card drawn with markup (no image request, no fake numbers presented as data). */
function HeroIllustration() {
  const { t } = useI18n();
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md">
      <div className="absolute -inset-4 rounded-3xl bg-white/10 blur-2xl" />
      <div className="relative rounded-2xl bg-white p-5 text-slate-900 shadow-2xl">
        <div className="flex items-center gap-3">
          <span className="h-9 w-9 rounded-full bg-brand-100" />
          <div className="flex-1 space-y-2">
            <span className="block h-2.5 w-2/3 rounded-full bg-slate-200" />
            <span className="block h-2 w-1/3 rounded-full bg-slate-100" />
          </div>
          <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
            {t('landing.hero.sentBadge')}
          </span>
        </div>
        <div className="mt-5 space-y-2 rounded-xl bg-brand-50 p-4">
          <span className="block h-3 w-3/4 rounded-full bg-brand-200" />
          <span className="block h-2 w-full rounded-full bg-brand-100" />
          <span className="block h-2 w-5/6 rounded-full bg-brand-100" />
          <span className="mt-3 block h-8 w-32 rounded-lg bg-brand-600" />
        </div>
        <div className="mt-5 flex h-24 items-end gap-2">
          {[40, 65, 50, 80, 60, 95, 70].map((height) => (
            <span key={height} className="flex-1 rounded-t-md bg-brand-500/80" style={{ height: `${height}%` }} />
          ))}
        </div>
      </div>
    </div>
  );
}
