import { DEFAULT_TIME_ZONE, formatBRL } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { pluralForm } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { errorText } from '@/lib/error-text';
import { formatCount, formatDate, formatDateTime } from '@/lib/format';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { BALANCE_QUERY_KEY, getBalance } from '@/lib/queries/balance';
import { usePageTitle } from '@/lib/use-page-title';
import { canManage, useSessionData } from '@/lib/use-session';
import { useDashboardStats } from '../api/get-stats';
import { type CampaignListItem, hasAny, listCampaigns } from '../api/home';
import { UnverifiedSendersNotice } from '../components/unverified-senders-notice';

// Recharts loads only when the home has campaigns to draw.
const RecentCampaignsChart = lazy(() => import('../components/recent-campaigns-chart'));

const STATUS_LABEL: Record<CampaignListItem['status'], MessageKey> = {
  draft: 'dashboard.status.draft',
  scheduled: 'dashboard.status.scheduled',
  sending: 'dashboard.status.sending',
  paused: 'dashboard.status.paused',
  sent: 'dashboard.status.sent',
  cancelled: 'dashboard.status.cancelled',
  failed: 'dashboard.status.failed',
};

function percent(rate: number): string {
  return `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 }).format(rate * 100)}%`;
}

/** dd/mm/aaaa of the first day of the previous month (UTC), where the server's rate window starts. */
/**
 * The first day the rates cover: the start of the previous month (the server's window), or the account's creation
 * when later — an account made on 25/11 has no e-mails "desde 01/10".
 */
export function rateWindowStart(accountCreatedAt: string | undefined, timeZone: string, now = new Date()): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const created = accountCreatedAt ? new Date(accountCreatedAt) : null;
  if (created && !Number.isNaN(created.getTime()) && created > start)
    return formatDate(created.toISOString(), timeZone);
  return formatDate(start.toISOString(), 'UTC');
}

/** Home: balance, the account's key numbers (GET /api/dashboard/stats), recent campaigns chart, lists, checklist. */
export function DashboardHomePage() {
  const { t } = useI18n();
  const session = useSessionData();
  const timeZone = String(session.account?.timeZone ?? DEFAULT_TIME_ZONE);
  const balance = useQuery({ queryKey: BALANCE_QUERY_KEY, queryFn: ({ signal }) => getBalance(signal) });
  const campaigns = useQuery({ queryKey: ['campaigns', 'home'], queryFn: ({ signal }) => listCampaigns(signal) });
  const stats = useDashboardStats();
  const lists = useQuery({ queryKey: ['lists', 'any'], queryFn: ({ signal }) => hasAny('/api/lists', signal) });
  const contacts = useQuery({
    queryKey: ['contacts', 'any'],
    queryFn: ({ signal }) => hasAny('/api/contacts?limit=1', signal),
  });

  usePageTitle(t('dashboard.home.title'));

  const items = campaigns.data ?? [];
  const recent = items
    .filter((c) => ['sent', 'sending', 'paused', 'failed', 'cancelled'].includes(c.status))
    .slice(0, 5);
  const upcoming = items
    .filter((c) => c.status === 'scheduled' && c.scheduledAt)
    .sort((a, b) => (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? ''))
    .slice(0, 5);

  // Members cannot buy credits (the server refuses them too): no "Adicionar créditos" step or link for them.
  const manager = canManage(session);
  const steps: Array<{ done: boolean | undefined; label: MessageKey; to: string }> = [
    { done: session.user.emailVerified, label: 'dashboard.onboarding.verify', to: '/dashboard' },
    { done: lists.data, label: 'dashboard.onboarding.list', to: '/dashboard/lists/new' },
    { done: contacts.data, label: 'dashboard.onboarding.contacts', to: '/dashboard/lists' },
    {
      done: campaigns.data ? items.length > 0 : undefined,
      label: 'dashboard.onboarding.campaign',
      to: '/dashboard/campaigns/new',
    },
    ...(manager
      ? [
          {
            done: balance.data ? balance.data.balanceMillis > 0 : undefined,
            label: 'dashboard.onboarding.credits' as const,
            to: '/dashboard/my-balance',
          },
        ]
      : []),
  ];
  const doneCount = steps.filter((s) => s.done).length;
  const rateHint = stats.data
    ? stats.data.rateWindowDelivered > 0
      ? t('home.rateWindow', {
          count: formatCount(stats.data.rateWindowDelivered),
          date: rateWindowStart(session.account?.createdAt as string | undefined, timeZone),
        })
      : t('home.rateNone')
    : undefined;
  const checklistKnown = steps.every((s) => s.done !== undefined);

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm font-medium text-brand-700">{session.account?.name}</p>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {greeting(t, session.user.name)}
        </h1>
      </div>
      <UnverifiedSendersNotice />

      {checklistKnown && doneCount < steps.length ? (
        <Card>
          <CardContent>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-lg font-bold text-slate-900">{t('dashboard.onboarding.title')}</h2>
              <span className="text-sm text-slate-600">
                {t('dashboard.onboarding.progress', { done: doneCount, total: steps.length })}
              </span>
            </div>
            <div className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100">
              <div
                className="h-full rounded-full bg-brand-600"
                style={{ width: `${(doneCount / steps.length) * 100}%` }}
              />
            </div>
            <ol className="mt-4 grid gap-2 sm:grid-cols-2 lg:grid-cols-5">
              {steps.map((step) => (
                <li key={step.label}>
                  <Link
                    to={step.to}
                    className={cn(
                      'flex h-full items-center gap-2 rounded-lg border px-3 py-2.5 text-sm',
                      step.done
                        ? 'border-emerald-200 bg-emerald-50 text-emerald-900'
                        : 'border-slate-200 text-slate-800 hover:border-brand-300 hover:bg-brand-50',
                    )}
                  >
                    <span
                      aria-hidden="true"
                      className={cn(
                        'flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold',
                        step.done ? 'bg-emerald-600 text-white' : 'border border-slate-300',
                      )}
                    >
                      {step.done ? '✓' : ''}
                    </span>
                    <span className={step.done ? 'line-through decoration-emerald-700/40' : ''}>{t(step.label)}</span>
                    <span className="sr-only">{step.done ? t('dashboard.onboarding.done') : ''}</span>
                  </Link>
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Card className="sm:col-span-2 lg:col-span-1">
          <CardContent>
            <p className="text-sm font-medium text-slate-600">{t('dashboard.home.balance')}</p>
            {balance.isPending ? (
              <Spinner className="mt-3" />
            ) : balance.isError ? (
              <p className="mt-2 text-sm text-red-700">{errorText(balance.error)}</p>
            ) : (
              <>
                <p className="mt-1 text-3xl font-bold tabular-nums text-slate-900" data-testid="home-balance">
                  {formatBRL(balance.data.balanceMillis)}
                </p>
                <p className="mt-1 text-xs text-slate-500">
                  {t('balance.pays', {
                    count: formatCount(balance.data.emailsPaid),
                    price: formatBRL(balance.data.priceMillis),
                  })}
                </p>
                {manager ? (
                  <Link
                    to="/dashboard/my-balance"
                    className="mt-3 inline-block text-sm font-semibold text-brand-700 hover:text-brand-900"
                  >
                    {t('balance.addCredits')} →
                  </Link>
                ) : null}
              </>
            )}
          </CardContent>
        </Card>
        {stats.isPending ? (
          <Card className="sm:col-span-2 lg:col-span-3">
            <CardContent>
              <Spinner label={t('common.loading')} />
            </CardContent>
          </Card>
        ) : stats.isError ? (
          <Card className="sm:col-span-2 lg:col-span-3">
            <CardContent role="alert" className="flex flex-wrap items-center gap-3 text-sm">
              <p className="text-red-700">{errorText(stats.error)}</p>
              <Button variant="outline" size="sm" onClick={() => void stats.refetch()}>
                {t('common.retry')}
              </Button>
            </CardContent>
          </Card>
        ) : (
          <>
            <Stat
              label={t('home.sentThisMonth')}
              value={formatCount(stats.data.sentThisMonth)}
              hint={t('home.sentTotal', { count: formatCount(stats.data.sentTotal) })}
              testId="home-sent-month"
            />
            <Stat
              label={t('home.openRate')}
              value={stats.data.rateWindowDelivered > 0 ? percent(stats.data.openRate) : '—'}
              hint={rateHint}
              testId="home-open-rate"
            />
            <Stat
              label={t('home.clickRate')}
              value={stats.data.rateWindowDelivered > 0 ? percent(stats.data.clickRate) : '—'}
              hint={rateHint}
              testId="home-click-rate"
            />
          </>
        )}
      </div>

      <RecentChart campaigns={items} pending={campaigns.isPending} />

      <div className="grid gap-6 lg:grid-cols-2">
        <CampaignList
          title={t('dashboard.home.recent')}
          empty={t('dashboard.home.noRecent')}
          query={campaigns}
          items={recent}
          date={(c) => (c.startedAt ? formatDate(c.startedAt, timeZone) : formatDate(c.updatedAt, timeZone))}
        />
        <CampaignList
          title={t('dashboard.home.upcoming')}
          empty={t('dashboard.home.noUpcoming')}
          query={campaigns}
          items={upcoming}
          date={(c) => (c.scheduledAt ? formatDateTime(c.scheduledAt, timeZone) : '')}
        />
      </div>
    </div>
  );
}

function Stat({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <Card>
      <CardContent>
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p className="mt-1 text-3xl font-bold tabular-nums text-slate-900" data-testid={testId}>
          {value}
        </p>
        {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      </CardContent>
    </Card>
  );
}

const CHART_CAMPAIGNS = 6;

/** Delivered, opens and clicks of the latest campaigns that went out, oldest first, with a table alternative. */
function RecentChart({ campaigns, pending }: { campaigns: CampaignListItem[]; pending: boolean }) {
  const { t, locale } = useI18n();
  if (pending) return null;
  const data = campaigns
    .filter((c) => c.startedAt && c.counters.sent > 0)
    .sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''))
    .slice(0, CHART_CAMPAIGNS)
    .reverse()
    .map((c) => ({
      id: c.id,
      name: c.name,
      delivered: c.counters.sent,
      opened: c.counters.opened,
      clicked: c.counters.clicked,
    }));
  const sum = (key: 'delivered' | 'opened' | 'clicked') => data.reduce((acc, d) => acc + d[key], 0);
  const total = (key: 'delivered' | 'opened' | 'clicked') => formatCount(sum(key));
  // "1 abertura", "2 aberturas": the word agrees with its count.
  const word = (key: 'delivered' | 'opened' | 'clicked') => t(`home.${key}.${pluralForm(locale, sum(key))}`);
  return (
    <Card data-testid="home-chart">
      <CardContent>
        <h2 className="text-lg font-bold text-slate-900">{t('home.chartTitle')}</h2>
        {data.length === 0 ? (
          <p className="mt-3 rounded-lg bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">
            {t('home.chartEmpty')}
          </p>
        ) : (
          <>
            <p className="mt-1 text-sm text-slate-600">
              {t('home.summary', {
                campaigns: data.length,
                delivered: total('delivered'),
                deliveredWord: word('delivered'),
                opened: total('opened'),
                openedWord: word('opened'),
                clicked: total('clicked'),
                clickedWord: word('clicked'),
              })}
            </p>
            <figure aria-label={t('home.chartLabel')} className="mt-3">
              <Suspense
                fallback={
                  <div className="flex h-40 items-center justify-center">
                    <Spinner label={t('home.loading')} />
                  </div>
                }
              >
                {/* The chart never widens the page (its measured width can run a pixel past the card at 375 px). */}
                <div aria-hidden="true" className="overflow-x-clip">
                  <RecentCampaignsChart
                    data={data}
                    formatCount={formatCount}
                    labels={{ delivered: t('home.delivered'), opened: t('home.opened'), clicked: t('home.clicked') }}
                  />
                </div>
              </Suspense>
            </figure>
            <details className="mt-2 text-sm">
              <summary className="cursor-pointer font-medium text-brand-700">{t('home.chartTable')}</summary>
              <table className="mt-2 w-full text-left">
                <thead>
                  <tr className="text-xs uppercase tracking-wide text-slate-500">
                    <th className="py-1 font-semibold">{t('home.campaign')}</th>
                    <th className="py-1 text-right font-semibold">{t('home.delivered')}</th>
                    <th className="py-1 text-right font-semibold">{t('home.opened')}</th>
                    <th className="py-1 text-right font-semibold">{t('home.clicked')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((d) => (
                    <tr key={d.id} className="border-t border-slate-100">
                      <td className="py-1">{d.name}</td>
                      <td className="py-1 text-right tabular-nums">{formatCount(d.delivered)}</td>
                      <td className="py-1 text-right tabular-nums">{formatCount(d.opened)}</td>
                      <td className="py-1 text-right tabular-nums">{formatCount(d.clicked)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function CampaignList({
  title,
  empty,
  query,
  items,
  date,
}: {
  title: string;
  empty: string;
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  items: CampaignListItem[];
  date: (c: CampaignListItem) => string;
}) {
  const { t } = useI18n();
  return (
    <section className="rounded-2xl border border-slate-200 bg-white shadow-sm">
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3 sm:px-6">
        <h2 className="font-bold text-slate-900">{title}</h2>
        <Link to="/dashboard/campaigns" className="text-sm font-medium text-brand-700 hover:text-brand-900">
          {t('dashboard.home.seeAll')}
        </Link>
      </div>
      {query.isPending ? (
        <div className="flex justify-center py-10">
          <Spinner label={t('common.loading')} />
        </div>
      ) : query.isError ? (
        <div role="alert" className="flex flex-col items-center gap-2 px-6 py-8 text-center text-sm">
          <p className="text-slate-700">{errorText(query.error)}</p>
          <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-3 px-6 py-10 text-center">
          <p className="text-sm text-slate-600">{empty}</p>
          <Link to="/dashboard/campaigns/new" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            {t('dashboard.home.newCampaign')}
          </Link>
        </div>
      ) : (
        <ul className="divide-y divide-slate-100">
          {items.map((c) => (
            <li key={c.id}>
              <Link
                to={`/dashboard/campaigns/${c.id}/view`}
                className="flex items-center justify-between gap-3 px-4 py-3 hover:bg-slate-50 sm:px-6"
              >
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">{c.name}</p>
                  <p className="truncate text-xs text-slate-500">{date(c)}</p>
                </div>
                <Badge tone={c.status === 'sent' ? 'success' : c.status === 'failed' ? 'danger' : 'neutral'}>
                  {t(STATUS_LABEL[c.status])}
                </Badge>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * "Olá, Ana!": the person's first name. Sign-up asks for the person's name ("Seu nome") and the business name comes
 * later in Settings, so the user's name is a person's; without one, a plain "Olá!".
 */
export function greetingName(userName: string): string {
  return userName.trim().split(/\s+/)[0] ?? '';
}

function greeting(t: ReturnType<typeof useI18n>['t'], userName: string): string {
  const name = greetingName(userName);
  return name ? t('dashboard.home.greeting', { name }) : t('dashboard.home.greetingNoName');
}
