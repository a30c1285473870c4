import { formatBRL } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useSessionData } from '@/features/auth/utils/use-session';
import { BALANCE_QUERY_KEY, getBalance } from '@/features/balance/api/get-balance';
import { cn } from '@/lib/cn';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { type CampaignSummary, hasAny, listCampaigns } from '../api/home';
import { formatCount, formatDate, formatDateTime, isoDay } from '../utils/format';
import { messageOf } from '../utils/notify';

const STATUS_LABEL: Record<CampaignSummary['status'], MessageKey> = {
  draft: 'dashboard.status.draft',
  scheduled: 'dashboard.status.scheduled',
  sending: 'dashboard.status.sending',
  paused: 'dashboard.status.paused',
  sent: 'dashboard.status.sent',
  cancelled: 'dashboard.status.cancelled',
  failed: 'dashboard.status.failed',
};

function percent(part: number, whole: number): string {
  return `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 }).format((part / whole) * 100)}%`;
}

/** Home: balance, this month's sending (from real campaign counters), campaigns, onboarding checklist. */
export function DashboardHomePage() {
  const { t } = useI18n();
  const session = useSessionData();
  const timeZone = String(session.account?.timeZone ?? 'America/Sao_Paulo');
  const balance = useQuery({ queryKey: BALANCE_QUERY_KEY, queryFn: ({ signal }) => getBalance(signal) });
  const campaigns = useQuery({ queryKey: ['campaigns', 'home'], queryFn: ({ signal }) => listCampaigns(signal) });
  const lists = useQuery({ queryKey: ['lists', 'any'], queryFn: ({ signal }) => hasAny('/api/lists', signal) });
  const contacts = useQuery({
    queryKey: ['contacts', 'any'],
    queryFn: ({ signal }) => hasAny('/api/contacts?limit=1', signal),
  });

  useEffect(() => {
    document.title = `${t('dashboard.home.title')} — Carteiro`;
  }, [t]);

  const month = isoDay(new Date(), timeZone).slice(0, 7);
  const items = campaigns.data ?? [];
  const thisMonth = items.filter((c) => c.startedAt && isoDay(new Date(c.startedAt), timeZone).startsWith(month));
  const sentThisMonth = thisMonth.reduce((sum, c) => sum + c.counters.sent, 0);
  const delivered = thisMonth.reduce((sum, c) => sum + c.counters.sent, 0);
  const opened = thisMonth.reduce((sum, c) => sum + c.counters.opened, 0);
  const clicked = thisMonth.reduce((sum, c) => sum + c.counters.clicked, 0);
  const recent = items
    .filter((c) => ['sent', 'sending', 'paused', 'failed', 'cancelled'].includes(c.status))
    .slice(0, 5);
  const upcoming = items
    .filter((c) => c.status === 'scheduled' && c.scheduledAt)
    .sort((a, b) => (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? ''))
    .slice(0, 5);

  const steps: Array<{ done: boolean | undefined; label: MessageKey; to: string }> = [
    { done: session.user.emailVerified, label: 'dashboard.onboarding.verify', to: '/dashboard' },
    { done: lists.data, label: 'dashboard.onboarding.list', to: '/dashboard/lists/new' },
    { done: contacts.data, label: 'dashboard.onboarding.contacts', to: '/dashboard/lists' },
    {
      done: campaigns.data ? items.length > 0 : undefined,
      label: 'dashboard.onboarding.campaign',
      to: '/dashboard/campaigns/new',
    },
    {
      done: balance.data ? balance.data.balanceMillis > 0 : undefined,
      label: 'dashboard.onboarding.credits',
      to: '/dashboard/my-balance',
    },
  ];
  const doneCount = steps.filter((s) => s.done).length;
  const checklistKnown = steps.every((s) => s.done !== undefined);

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm font-medium text-brand-700">{session.account?.name}</p>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {t('dashboard.home.greeting', { name: session.user.name.split(' ')[0] ?? '' })}
        </h1>
      </div>

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
              <p className="mt-2 text-sm text-red-700">{messageOf(balance.error)}</p>
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
                <Link
                  to="/dashboard/my-balance"
                  className="mt-3 inline-block text-sm font-semibold text-brand-700 hover:text-brand-900"
                >
                  {t('balance.addCredits')} →
                </Link>
              </>
            )}
          </CardContent>
        </Card>
        {campaigns.data ? (
          <>
            <Stat label={t('dashboard.home.sentThisMonth')} value={formatCount(sentThisMonth)} />
            {delivered > 0 ? (
              <>
                <Stat label={t('dashboard.home.openRate')} value={percent(opened, delivered)} />
                <Stat label={t('dashboard.home.clickRate')} value={percent(clicked, delivered)} />
              </>
            ) : null}
          </>
        ) : null}
      </div>

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

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <CardContent>
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p className="mt-1 text-3xl font-bold tabular-nums text-slate-900">{value}</p>
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
  items: CampaignSummary[];
  date: (c: CampaignSummary) => string;
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
          <p className="text-slate-700">{messageOf(query.error)}</p>
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
