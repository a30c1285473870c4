import '@/lib/i18n/app-messages';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { signOut } from '@/features/auth/api/sign-out';
import { loginPathFor } from '@/features/auth/utils/safe-next';
import { AccountSwitcher } from '@/features/dashboard/components/account-switcher';
import { VerifyEmailBanner } from '@/features/dashboard/components/verify-email-banner';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { useSession } from '@/lib/use-session';
import { useAppStore, useUser } from '@/stores/app-store';

interface NavItem {
  to: string;
  label: MessageKey;
  icon: string;
  isActive: (path: string) => boolean;
}

const NAV: NavItem[] = [
  {
    to: '/dashboard',
    label: 'dashboard.nav.home',
    icon: 'M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
    isActive: (p) => p === '/dashboard' || p === '/dashboard/',
  },
  {
    to: '/dashboard/campaigns',
    label: 'dashboard.nav.campaigns',
    icon: 'M4 6h16v12H4zM4 7l8 6 8-6',
    isActive: (p) => p.startsWith('/dashboard/campaigns') && !p.startsWith('/dashboard/campaigns/calendar'),
  },
  {
    to: '/dashboard/campaigns/calendar',
    label: 'dashboard.nav.calendar',
    icon: 'M5 5h14v15H5zM5 10h14M9 3v4M15 3v4',
    isActive: (p) => p.startsWith('/dashboard/campaigns/calendar'),
  },
  {
    to: '/dashboard/templates',
    label: 'dashboard.nav.templates',
    icon: 'M4 4h16v16H4zM4 9h16M9 9v11',
    isActive: (p) => p.startsWith('/dashboard/templates'),
  },
  {
    to: '/dashboard/lists',
    label: 'dashboard.nav.lists',
    icon: 'M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01',
    isActive: (p) => p.startsWith('/dashboard/lists'),
  },
  {
    to: '/dashboard/contacts',
    label: 'dashboard.nav.contacts',
    icon: 'M16 20v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M9.5 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7M21 20v-1a4 4 0 0 0-3-3.87M16 4.13a3.5 3.5 0 0 1 0 6.74',
    isActive: (p) => p.startsWith('/dashboard/contacts'),
  },
  {
    to: '/dashboard/segments',
    label: 'dashboard.nav.segments',
    icon: 'M4 5h16l-6 8v5l-4 2v-7z',
    isActive: (p) => p.startsWith('/dashboard/segments'),
  },
  {
    to: '/dashboard/automations',
    label: 'dashboard.nav.automations',
    icon: 'M13 2L4 14h7l-1 8 9-12h-7z',
    isActive: (p) => p.startsWith('/dashboard/automations'),
  },
  {
    to: '/dashboard/my-balance',
    label: 'dashboard.nav.balance',
    icon: 'M3 7h18v12H3zM3 11h18M16 15h2',
    isActive: (p) => p.startsWith('/dashboard/my-balance'),
  },
  {
    to: '/dashboard/api',
    label: 'dashboard.nav.api',
    icon: 'M8 8l-4 4 4 4M16 8l4 4-4 4M13 6l-2 12',
    isActive: (p) => p.startsWith('/dashboard/api'),
  },
  {
    to: '/dashboard/settings',
    label: 'dashboard.nav.settings',
    icon: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-2.9 1.2V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-2.9-1.2l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1A1.7 1.7 0 0 0 3 14H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.2-2.9l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1A1.7 1.7 0 0 0 10 3.1V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 2.9 1.2l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1A1.7 1.7 0 0 0 21 10h.1a2 2 0 1 1 0 4z',
    isActive: (p) => p.startsWith('/dashboard/settings'),
  },
];

const ADMIN_NAV: NavItem = {
  to: '/admin',
  label: 'admin.nav',
  icon: 'M12 3l8 4v5c0 5-3.5 8.5-8 9-4.5-.5-8-4-8-9V7z',
  isActive: (p) => p.startsWith('/admin'),
};

/** `/dashboard/*`: the session guard and the sidebar shell. Its own chunk, so the landing never loads it. */
export function DashboardLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionGate />
    </QueryClientProvider>
  );
}

function SessionGate() {
  const location = useLocation();
  const store = useAppStore();
  const { t } = useI18n();
  const session = useSession();

  useEffect(() => {
    if (session.data) {
      store.dispatch({ type: 'SET_USER', user: session.data.user });
      store.dispatch({ type: 'SET_ACCOUNT', account: session.data.account });
    }
  }, [session.data, store]);

  if (session.isError && !session.isFetching) {
    if (isApiError(session.error) && session.error.status === 401) {
      return <Navigate replace to={loginPathFor(`${location.pathname}${location.search}`, session.error.code)} />;
    }
    return (
      <main className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center" role="alert">
        <p className="text-lg font-semibold text-slate-900">{t('dashboard.sessionError')}</p>
        <p className="text-sm text-slate-600">
          {isApiError(session.error) ? session.error.message : t('common.error')}
        </p>
        <Button onClick={() => void session.refetch()}>{t('common.retry')}</Button>
      </main>
    );
  }
  if (!session.data) {
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }
  return <DashboardShell />;
}

function DashboardShell() {
  const { t } = useI18n();
  const location = useLocation();
  const navigate = useNavigate();
  const user = useUser();
  const session = useSession().data;
  const [menuOpen, setMenuOpen] = useState(false);
  const items: NavItem[] = session?.isOperator ? [...NAV, ADMIN_NAV] : NAV;

  // Close the mobile menu on navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only.
  useEffect(() => setMenuOpen(false), [location.pathname]);

  async function onSignOut() {
    try {
      await signOut();
    } finally {
      queryClient.clear();
      navigate('/auth/login', { replace: true });
    }
  }

  const nav = (
    <nav aria-label={t('nav.mainMenu')} className="flex flex-1 flex-col gap-1 p-3">
      {items.map((item) => {
        const active = item.isActive(location.pathname);
        return (
          <Link
            key={item.to}
            to={item.to}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors',
              active ? 'bg-brand-100 text-brand-900' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
            )}
          >
            <svg
              viewBox="0 0 24 24"
              className="h-5 w-5 shrink-0"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              aria-hidden="true"
            >
              <path d={item.icon} strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            {t(item.label)}
          </Link>
        );
      })}
    </nav>
  );

  const userBox = user ? (
    <div className="border-t border-slate-200 p-4">
      <p className="truncate text-sm font-medium text-slate-900">{user.name}</p>
      <p className="truncate text-xs text-slate-500">{user.email}</p>
      <Button variant="ghost" size="sm" className="mt-2 -ml-3" onClick={() => void onSignOut()}>
        {t('auth.signOut')}
      </Button>
    </div>
  ) : null;

  return (
    <div className="min-h-dvh bg-slate-50 lg:grid lg:grid-cols-[16rem_1fr]">
      {/* The first Tab stop: straight to the page's content, past the menu (WCAG 2.4.1). */}
      <a
        href="#conteudo"
        className="sr-only z-50 rounded-md bg-brand-700 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        {t('dashboard.skipToContent')}
      </a>
      <aside className="hidden border-r border-slate-200 bg-white lg:sticky lg:top-0 lg:flex lg:h-dvh lg:flex-col">
        <div className="flex h-16 items-center border-b border-slate-200 px-5">
          <Link to="/dashboard" aria-label={t('dashboard.homeLabel')}>
            <Logo />
          </Link>
        </div>
        <AccountSwitcher className="border-b border-slate-200 px-4 py-3" />
        {nav}
        {userBox}
      </aside>

      <header className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-slate-200 bg-white px-4 lg:hidden">
        <Link to="/dashboard" aria-label={t('dashboard.homeLabel')}>
          <Logo />
        </Link>
        <Button
          variant="ghost"
          size="icon"
          aria-expanded={menuOpen}
          aria-controls="dashboard-mobile-nav"
          aria-label={menuOpen ? t('dashboard.closeMenu') : t('dashboard.openMenu')}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg
            viewBox="0 0 24 24"
            className="h-6 w-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <path d={menuOpen ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16'} strokeLinecap="round" />
          </svg>
        </Button>
      </header>
      {menuOpen ? (
        <div
          id="dashboard-mobile-nav"
          className="fixed inset-x-0 top-14 bottom-0 z-30 flex flex-col overflow-y-auto bg-white lg:hidden"
        >
          <AccountSwitcher className="border-b border-slate-200 px-4 py-3" />
          {nav}
          {userBox}
        </div>
      ) : null}

      <main id="conteudo" tabIndex={-1} className="min-w-0 px-4 py-6 outline-none sm:px-8 sm:py-8">
        <div className="mx-auto max-w-6xl">
          <VerifyEmailBanner />
          <Suspense
            fallback={
              <div className="flex justify-center py-20">
                <Spinner />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </div>
      </main>
    </div>
  );
}
