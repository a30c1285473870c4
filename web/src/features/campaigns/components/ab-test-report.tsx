import { Badge } from '@/components/ui/badge';
import { formatCount, formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import type { CampaignReport } from '../api/get-report';
import { countForm } from './count-form';
import { formatRate } from './report-data';
import { ChartCard } from './report-parts';

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
