import { SKIP_REASONS } from '@carteiro/shared';
import { lazy, Suspense } from 'react';
import { ErrorPanel, Stat } from '@/components/kit';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatCount } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { type CampaignReport, reportCsvUrl, useCampaignReport } from '../api/get-report';
import type { Campaign } from '../api/types';
import { AbTestComparison } from './ab-test-report';
import { countForm } from './count-form';
import { RecipientsTable } from './recipients-table';
import { activitySummary, bounceRows, formatRate, hourlyPoints, totalBounces } from './report-data';
import { ChartCard, ChartFallback, Empty } from './report-parts';

// Recharts is heavy: its chunk loads only when a report has something to draw.
const ActivityChart = lazy(() => import('./report-charts').then((m) => ({ default: m.ActivityChart })));
const LinksChart = lazy(() => import('./report-charts').then((m) => ({ default: m.LinksChart })));
const BouncesChart = lazy(() => import('./report-charts').then((m) => ({ default: m.BouncesChart })));

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
