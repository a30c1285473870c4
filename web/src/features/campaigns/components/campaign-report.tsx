import { isSkipReason, SKIP_REASONS } from '@carteiro/shared';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { ErrorPanel, Stat, TableShell, td, th } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { formatCount, formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { type RecipientActivity, useCampaignRecipients } from '../api/get-recipients';
import { type CampaignReport, reportCsvUrl, useCampaignReport } from '../api/get-report';
import type { Campaign } from '../api/types';
import { countForm } from './count-form';
import {
  activitySummary,
  bounceRows,
  bounceText,
  formatRate,
  hourlyPoints,
  recipientStatusText,
  totalBounces,
} from './report-data';

// Recharts is heavy: its chunk loads only when a report has something to draw.
const ActivityChart = lazy(() => import('./report-charts').then((m) => ({ default: m.ActivityChart })));
const LinksChart = lazy(() => import('./report-charts').then((m) => ({ default: m.LinksChart })));
const BouncesChart = lazy(() => import('./report-charts').then((m) => ({ default: m.BouncesChart })));

const SEARCH_DEBOUNCE_MS = 300;

/** The campaign's results once sending has started: numbers, charts over time, links, recipients, CSV. */
export function CampaignReportSection({ campaign, timeZone }: { campaign: Campaign; timeZone: string }) {
  const { t } = useI18n();
  const started = !['draft', 'scheduled'].includes(campaign.status);
  const report = useCampaignReport(campaign.id, started, campaign.status === 'sending');
  if (!started) return null;
  return (
    <section className="mt-8 space-y-4" aria-labelledby="report-title" data-testid="campaign-report">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="report-title" className="text-xl font-bold text-slate-900">
          {t('campaigns.report.title')}
        </h2>
        <a href={reportCsvUrl(campaign.id)} download className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          {t('campaigns.report.exportCsv')}
        </a>
      </div>
      {report.isPending ? (
        <Card className="p-6">
          <Spinner label={t('campaigns.report.loading')} />
        </Card>
      ) : report.isError ? (
        <ErrorPanel error={report.error} onRetry={() => report.refetch()} />
      ) : (
        <ReportBody report={report.data} timeZone={timeZone} />
      )}
      <RecipientsTable campaignId={campaign.id} timeZone={timeZone} ab={Boolean(campaign.abTest)} />
    </section>
  );
}

/** The numbers and charts of a loaded report (exported for the unit tests). */
export function ReportBody({ report: r, timeZone }: { report: CampaignReport; timeZone: string }) {
  const { t } = useI18n();
  const points = hourlyPoints(r.series, timeZone);
  const hasActivity = points.some((p) => p.opens > 0 || p.clicks > 0);
  const bounces = totalBounces(r.bounces);
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-3" data-testid="report-numbers">
        <Stat
          label={t('campaigns.report.delivered')}
          value={formatCount(r.delivered)}
          hint={[
            t(`campaigns.report.ofRecipients.${countForm(r.recipients)}`, { count: formatCount(r.recipients) }),
            t(`campaigns.report.failed.${countForm(r.failed)}`, { count: formatCount(r.failed) }),
            r.skipped > 0
              ? t(`campaigns.report.skipped.${countForm(r.skipped)}`, { count: formatCount(r.skipped) })
              : null,
            r.pending > 0
              ? t(`campaigns.report.pending.${countForm(r.pending)}`, { count: formatCount(r.pending) })
              : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        />
        <Stat
          label={t('campaigns.report.uniqueOpens')}
          value={formatCount(r.opens.uniqueHuman)}
          hint={t(`campaigns.report.opensHint.${countForm(r.opens.machine)}`, {
            rate: formatRate(r.opens.rate),
            count: formatCount(r.opens.machine),
          })}
        />
        <Stat
          label={t('campaigns.report.uniqueClicks')}
          value={formatCount(r.clicks.unique)}
          hint={t('campaigns.report.clicksHint', {
            rate: formatRate(r.clicks.rate),
            clickToOpen: formatRate(r.clicks.clickToOpenRate),
          })}
        />
        <Stat
          label={t('campaigns.report.unsubscribes')}
          value={formatCount(r.unsubscribes)}
          hint={
            r.delivered > 0
              ? t('campaigns.report.ofDelivered', { rate: formatRate(r.unsubscribes / r.delivered) })
              : undefined
          }
        />
        <Stat
          label={t('campaigns.report.bounces')}
          value={formatCount(bounces)}
          hint={t('campaigns.report.bouncesHint', {
            hard: formatCount(r.bounces.hard),
            soft: formatCount(r.bounces.soft),
            policy: formatCount(r.bounces.policy),
          })}
        />
        <Stat
          label={t('campaigns.report.complaints')}
          value={formatCount(r.complaints)}
          hint={
            r.delivered > 0
              ? t('campaigns.report.ofDelivered', { rate: formatRate(r.complaints / r.delivered) })
              : undefined
          }
        />
      </div>
      {r.skipped > 0 ? <SkipReasons report={r} /> : null}
      {r.pausedReason ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
          {r.pausedReason}
        </p>
      ) : null}
      {r.abTest ? <AbTestComparison ab={r.abTest} timeZone={timeZone} /> : null}

      <ChartCard title={t('campaigns.report.activityTitle')} testId="report-activity">
        {hasActivity ? (
          <>
            <p className="mb-3 text-sm text-slate-600" data-testid="activity-summary">
              {activitySummary(points, t)}
            </p>
            <figure aria-label={t('campaigns.report.activityFigure')} data-testid="activity-chart">
              <Suspense fallback={<ChartFallback />}>
                <div aria-hidden="true">
                  <ActivityChart points={points} />
                </div>
              </Suspense>
            </figure>
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer font-medium text-brand-700">
                {t('campaigns.report.tableToggle')}
              </summary>
              <table className="mt-2 w-full text-left">
                <caption className="sr-only">{t('campaigns.report.activityTitle')}</caption>
                <thead>
                  <tr className="text-xs uppercase tracking-wide text-slate-500">
                    <th className="py-1 font-semibold">{t('campaigns.report.col.hour')}</th>
                    <th className="py-1 text-right font-semibold">{t('campaigns.col.opens')}</th>
                    <th className="py-1 text-right font-semibold">{t('campaigns.col.clicks')}</th>
                  </tr>
                </thead>
                <tbody>
                  {points
                    .filter((p) => p.opens > 0 || p.clicks > 0)
                    .map((p) => (
                      <tr key={p.hour} className="border-t border-slate-100">
                        <td className="py-1">{p.label}</td>
                        <td className="py-1 text-right tabular-nums">{formatCount(p.opens)}</td>
                        <td className="py-1 text-right tabular-nums">{formatCount(p.clicks)}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </details>
          </>
        ) : (
          <Empty>{t('campaigns.report.noActivity')}</Empty>
        )}
      </ChartCard>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <ChartCard title={t('campaigns.report.linksTitle')} testId="report-links">
          {r.links.length === 0 ? (
            <Empty>{t('campaigns.report.noLinks')}</Empty>
          ) : (
            <>
              {r.links.some((l) => l.uniqueClicks > 0) ? (
                <figure aria-label={t('campaigns.report.linksFigure')} className="mb-3">
                  <Suspense fallback={<ChartFallback />}>
                    <div aria-hidden="true">
                      <LinksChart links={r.links} />
                    </div>
                  </Suspense>
                </figure>
              ) : null}
              <div className="overflow-x-auto">
                <table className="w-full table-fixed text-left text-sm">
                  <caption className="sr-only">{t('campaigns.report.linksCaption')}</caption>
                  <colgroup>
                    <col />
                    <col className="w-20" />
                    <col className="w-20" />
                  </colgroup>
                  <thead>
                    <tr className="text-xs uppercase tracking-wide text-slate-500">
                      <th className="py-2 pr-3 font-semibold">{t('campaigns.report.col.link')}</th>
                      <th className="py-2 pr-3 text-right font-semibold">{t('campaigns.col.clicks')}</th>
                      <th className="py-2 text-right font-semibold">{t('campaigns.report.col.people')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.links.map((link) => (
                      <tr key={link.id} className="border-t border-slate-100" data-testid="link-row">
                        <td className="truncate py-2 pr-3 text-slate-700" title={link.url}>
                          {link.url}
                        </td>
                        <td className="py-2 pr-3 text-right tabular-nums">{formatCount(link.clicks)}</td>
                        <td className="py-2 text-right tabular-nums">{formatCount(link.uniqueClicks)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </ChartCard>
        <ChartCard title={t('campaigns.report.bouncesTitle')} testId="report-bounces">
          {bounces === 0 ? (
            <Empty>{t('campaigns.report.noBounces')}</Empty>
          ) : (
            <>
              <figure aria-label={t('campaigns.report.bouncesFigure')} className="mb-3">
                <Suspense fallback={<ChartFallback />}>
                  <div aria-hidden="true">
                    <BouncesChart rows={bounceRows(r.bounces, t)} />
                  </div>
                </Suspense>
              </figure>
              <dl className="grid grid-cols-3 gap-2 text-sm">
                {bounceRows(r.bounces, t).map((row) => (
                  <div key={row.kind} className="rounded-lg bg-slate-50 px-3 py-2">
                    <dt className="text-xs text-slate-500">{row.label}</dt>
                    <dd className="text-lg font-bold tabular-nums text-slate-900">{formatCount(row.count)}</dd>
                  </div>
                ))}
              </dl>
            </>
          )}
        </ChartCard>
      </div>
    </div>
  );
}

/** The A/B test: each variant's numbers over the test share, the winner and why (or when it will be chosen). */
export function AbTestComparison({ ab, timeZone }: { ab: NonNullable<CampaignReport['abTest']>; timeZone: string }) {
  const { t } = useI18n();
  const outcome =
    ab.winner === null
      ? t(`campaigns.report.ab.pending.${countForm(ab.held)}`, {
          when: formatDateTime(ab.decideAt, timeZone),
          count: formatCount(ab.held),
        })
      : ab.decidedAt
        ? t('campaigns.report.ab.decided', { when: formatDateTime(ab.decidedAt, timeZone) })
        : null;
  return (
    <ChartCard title={t('campaigns.ab.title')} testId="ab-report">
      <p className="mb-3 text-sm text-slate-600">
        {t(`campaigns.report.ab.intro.${countForm(ab.waitHours)}`, {
          percent: ab.testPercent,
          count: ab.variants.length,
          criterion: t(ab.criterion === 'opens' ? 'campaigns.report.ab.byOpens' : 'campaigns.ab.rate.clicks'),
          hours: ab.waitHours,
        })}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('campaigns.report.ab.caption')}</caption>
          <thead>
            <tr className="text-xs uppercase tracking-wide text-slate-500">
              <th className="py-2 pr-3 font-semibold">{t('campaigns.report.ab.col.variant')}</th>
              <th className="py-2 pr-3 font-semibold">{t('campaigns.field.subject')}</th>
              <th className="py-2 pr-3 text-right font-semibold">{t('campaigns.report.delivered')}</th>
              <th className="py-2 pr-3 text-right font-semibold">{t('campaigns.report.uniqueOpens')}</th>
              <th className="py-2 text-right font-semibold">{t('campaigns.report.uniqueClicks')}</th>
            </tr>
          </thead>
          <tbody>
            {ab.variants.map((v) => (
              <tr
                key={v.index}
                className={
                  v.index === ab.winner ? 'border-t border-slate-100 bg-emerald-50' : 'border-t border-slate-100'
                }
                data-testid="ab-variant-row"
              >
                <td className="py-2 pr-3 font-semibold text-slate-900">
                  {v.letter}{' '}
                  {v.index === ab.winner ? (
                    <Badge tone="success" className="ml-1">
                      {t('campaigns.report.ab.winner')}
                    </Badge>
                  ) : null}
                </td>
                <td className="py-2 pr-3 text-slate-700">
                  {v.subject}
                  {v.fromName ? (
                    <span className="block text-xs text-slate-500">
                      {t('campaigns.report.ab.sender', { name: v.fromName })}
                    </span>
                  ) : null}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  {formatCount(v.delivered)}
                  <span className="block text-xs text-slate-500">
                    {t('campaigns.report.ab.of', { count: formatCount(v.recipients) })}
                  </span>
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  {formatCount(v.uniqueOpens)} <span className="text-slate-500">({formatRate(v.openRate)})</span>
                </td>
                <td className="py-2 text-right tabular-nums">
                  {formatCount(v.uniqueClicks)} <span className="text-slate-500">({formatRate(v.clickRate)})</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p
        className={
          ab.winner === null
            ? 'mt-3 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900'
            : 'mt-3 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900'
        }
        role="status"
        data-testid="ab-reason"
      >
        {ab.reason}
        {outcome ? ` ${outcome}` : ''}
      </p>
    </ChartCard>
  );
}

function ChartCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card data-testid={testId} className="min-w-0">
      <CardContent>
        <h3 className="mb-3 font-bold text-slate-900">{title}</h3>
        {children}
      </CardContent>
    </Card>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-lg bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">{children}</p>;
}

function ChartFallback() {
  const { t } = useI18n();
  return (
    <div className="flex h-40 items-center justify-center">
      <Spinner label={t('campaigns.report.chartLoading')} />
    </div>
  );
}

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** Who received it and what each one did: searchable by e-mail, 50 at a time ("Carregar mais"). */
export function RecipientsTable({
  campaignId,
  timeZone,
  ab = false,
}: {
  campaignId: string;
  timeZone: string;
  /** An A/B campaign: a "Variante" column. */
  ab?: boolean;
}) {
  const { t } = useI18n();
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const recipients = useCampaignRecipients(campaignId, term, true);
  const items = recipients.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Card data-testid="report-recipients">
      <CardContent className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h3 className="font-bold text-slate-900">{t('campaigns.recipients')}</h3>
          <div className="w-full sm:w-72">
            <label htmlFor="recipient-search" className="sr-only">
              {t('campaigns.report.searchLabel')}
            </label>
            <Input
              id="recipient-search"
              type="search"
              placeholder={t('campaigns.report.searchPlaceholder')}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </div>
        {recipients.isPending ? (
          <Spinner label={t('campaigns.report.recipientsLoading')} />
        ) : recipients.isError ? (
          <ErrorPanel error={recipients.error} onRetry={() => recipients.refetch()} />
        ) : items.length === 0 ? (
          <Empty>{term ? t('campaigns.report.noMatch', { term }) : t('campaigns.report.noRecipients')}</Empty>
        ) : (
          <>
            <TableShell>
              <caption className="sr-only">{t('campaigns.report.recipientsCaption')}</caption>
              <thead>
                <tr>
                  <th className={th}>{t('campaigns.report.col.email')}</th>
                  <th className={th}>{t('campaigns.col.status')}</th>
                  {ab ? <th className={th}>{t('campaigns.report.ab.col.variant')}</th> : null}
                  <th className={th}>{t('campaigns.report.col.sentAt')}</th>
                  <th className={`${th} text-right`}>{t('campaigns.col.opens')}</th>
                  <th className={`${th} text-right`}>{t('campaigns.col.clicks')}</th>
                  <th className={th}>{t('campaigns.report.col.marks')}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <RecipientRow key={item.messageId} item={item} timeZone={timeZone} ab={ab} />
                ))}
              </tbody>
            </TableShell>
            {recipients.hasNextPage ? (
              <div className="flex justify-center">
                <Button
                  variant="outline"
                  disabled={recipients.isFetchingNextPage}
                  onClick={() => void recipients.fetchNextPage()}
                >
                  {recipients.isFetchingNextPage ? t('common.loading') : t('campaigns.report.loadMore')}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Why the skipped recipients were not sent to (the eligibility rule's reason at the claim, or the cancellation). */
function SkipReasons({ report: r }: { report: CampaignReport }) {
  const { t } = useI18n();
  const parts = SKIP_REASONS.filter((reason) => (r.skippedByReason[reason] ?? 0) > 0).map(
    (reason) => `${t(`campaigns.skipReason.${reason}`)}: ${formatCount(r.skippedByReason[reason] ?? 0)}`,
  );
  if (parts.length === 0) return null;
  return (
    <p className="text-sm text-slate-600" data-testid="skip-reasons">
      {t('campaigns.report.skipReasons', { reasons: parts.join(' · ') })}
    </p>
  );
}

function RecipientRow({ item, timeZone, ab }: { item: RecipientActivity; timeZone: string; ab: boolean }) {
  const { t } = useI18n();
  const when = (iso: string | null) => (iso ? formatDateTime(iso, timeZone) : '—');
  const marks = [
    item.unsubscribed ? { text: t('campaigns.report.mark.unsubscribed'), tone: 'warning' as const } : null,
    item.bounce ? { text: bounceText(item.bounce, t), tone: 'danger' as const } : null,
    item.complained ? { text: t('campaigns.report.mark.complained'), tone: 'danger' as const } : null,
    item.skipReason
      ? {
          text: (isSkipReason(item.skipReason)
            ? t(`campaigns.skipReason.${item.skipReason}`)
            : item.skipReason
          ).toLowerCase(),
          tone: 'neutral' as const,
        }
      : null,
  ].filter((m) => m !== null);
  return (
    <tr className="hover:bg-slate-50" data-testid="recipient-row">
      <td className={`${td} max-w-[16rem] truncate font-medium text-slate-900`} title={item.email}>
        {item.email}
      </td>
      <td className={td}>
        <Badge tone={item.status === 'sent' ? 'success' : item.status === 'failed' ? 'danger' : 'neutral'}>
          {recipientStatusText(item.status, t)}
        </Badge>
      </td>
      {ab ? (
        <td className={td} title={item.variant ? undefined : t('campaigns.report.awaitingVariantHint')}>
          {item.variant ?? t('campaigns.report.awaitingVariant')}
        </td>
      ) : null}
      <td className={`${td} whitespace-nowrap`}>{when(item.sentAt)}</td>
      <td
        className={`${td} text-right tabular-nums`}
        title={item.lastOpenAt ? t('campaigns.report.lastOpen', { when: when(item.lastOpenAt) }) : undefined}
      >
        {formatCount(item.opens)}
      </td>
      <td
        className={`${td} text-right tabular-nums`}
        title={item.lastClickAt ? t('campaigns.report.lastClick', { when: when(item.lastClickAt) }) : undefined}
      >
        {formatCount(item.clicks)}
      </td>
      <td className={td}>
        {marks.length === 0 ? (
          <span className="text-slate-400">—</span>
        ) : (
          <span className="flex flex-wrap gap-1">
            {marks.map((m) => (
              <Badge key={m.text} tone={m.tone}>
                {m.text}
              </Badge>
            ))}
          </span>
        )}
      </td>
    </tr>
  );
}
