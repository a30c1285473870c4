import { formatBRL, LEDGER_KIND_LABELS_PT_BR, type LedgerEntryDto } from '@carteiro/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { errorText } from '@/lib/error-text';
import { formatDate, isoDay } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { listStatement, type StatementPeriod, statementCsvUrl, statementQueryKey } from '../api/list-statement';

type Preset = 'all' | '30d' | 'month' | 'custom';

function presetPeriod(preset: Preset, timeZone: string): StatementPeriod {
  const now = new Date();
  if (preset === '30d')
    return { from: isoDay(new Date(now.getTime() - 29 * 86_400_000), timeZone), to: isoDay(now, timeZone) };
  if (preset === 'month') return { from: `${isoDay(now, timeZone).slice(0, 8)}01`, to: isoDay(now, timeZone) };
  return {};
}

/** The extrato: every ledger entry with date, description, campaign, signed amount and running balance. */
export function Statement({ timeZone }: { timeZone: string }) {
  const { t } = useI18n();
  const fromId = useId();
  const toId = useId();
  const [preset, setPreset] = useState<Preset>('all');
  const [custom, setCustom] = useState<StatementPeriod>({});
  const period = preset === 'custom' ? custom : presetPeriod(preset, timeZone);
  const query = useInfiniteQuery({
    queryKey: statementQueryKey(period),
    queryFn: ({ pageParam, signal }) => listStatement(period, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];

  const presets: Array<[Preset, string]> = [
    ['all', t('balance.statement.all')],
    ['30d', t('balance.statement.last30')],
    ['month', t('balance.statement.thisMonth')],
    ['custom', t('balance.statement.custom')],
  ];

  return (
    <section aria-labelledby="extrato-title" className="rounded-2xl border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4 sm:p-6">
        <h2 id="extrato-title" className="text-lg font-bold text-slate-900">
          {t('balance.statement.title')}
        </h2>
        <a href={statementCsvUrl(period)} download className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          {t('balance.statement.csv')}
        </a>
      </div>
      <div className="flex flex-wrap items-end gap-3 border-b border-slate-100 px-4 py-3 sm:px-6">
        <fieldset className="flex flex-wrap gap-1" aria-label={t('balance.statement.period')}>
          {presets.map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={preset === value}
              onClick={() => setPreset(value)}
              className={cn(
                'rounded-full px-3 py-1.5 text-sm font-medium',
                preset === value ? 'bg-brand-700 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200',
              )}
            >
              {label}
            </button>
          ))}
        </fieldset>
        {preset === 'custom' ? (
          <div className="flex flex-wrap gap-3">
            <div>
              <Label htmlFor={fromId} className="text-xs">
                {t('balance.statement.from')}
              </Label>
              <Input
                id={fromId}
                type="date"
                value={custom.from ?? ''}
                onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value || undefined }))}
                className="mt-1 h-9 text-sm"
              />
            </div>
            <div>
              <Label htmlFor={toId} className="text-xs">
                {t('balance.statement.to')}
              </Label>
              <Input
                id={toId}
                type="date"
                value={custom.to ?? ''}
                onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value || undefined }))}
                className="mt-1 h-9 text-sm"
              />
            </div>
          </div>
        ) : null}
      </div>

      {query.isPending ? (
        <div className="flex justify-center py-14">
          <Spinner label={t('common.loading')} />
        </div>
      ) : query.isError ? (
        <div role="alert" className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <p className="font-semibold text-slate-900">{t('balance.statement.error')}</p>
          <p className="text-sm text-slate-600">{errorText(query.error)}</p>
          <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      ) : entries.length === 0 ? (
        <EmptyState
          className="m-4 sm:m-6"
          title={t('balance.statement.emptyTitle')}
          description={t('balance.statement.emptyBody')}
        />
      ) : (
        <>
          <table className="w-full text-sm">
            <thead className="hidden bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500 sm:table-header-group">
              <tr>
                <th className="px-6 py-3 font-semibold">{t('balance.statement.date')}</th>
                <th className="px-3 py-3 font-semibold">{t('balance.statement.description')}</th>
                <th className="px-3 py-3 text-right font-semibold">{t('balance.statement.amount')}</th>
                <th className="px-6 py-3 text-right font-semibold">{t('balance.statement.balance')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {entries.map((entry) => (
                <StatementRow key={entry.id} entry={entry} timeZone={timeZone} />
              ))}
            </tbody>
          </table>
          {query.hasNextPage ? (
            <div className="flex justify-center border-t border-slate-100 p-4">
              <Button
                variant="outline"
                size="sm"
                disabled={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                {query.isFetchingNextPage ? <Spinner /> : null}
                {t('balance.statement.more')}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function StatementRow({ entry, timeZone }: { entry: LedgerEntryDto; timeZone: string }) {
  const { t } = useI18n();
  const positive = entry.amountMillis > 0;
  const amount = `${positive ? '+' : ''}${formatBRL(entry.amountMillis)}`;
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 px-4 py-3 sm:table-row sm:px-0 sm:py-0">
      <td className="text-xs text-slate-500 sm:px-6 sm:py-3 sm:text-sm sm:text-slate-700">
        {formatDate(entry.createdAt, timeZone)}
      </td>
      <td className="col-span-2 row-start-2 sm:px-3 sm:py-3">
        <span className="mr-2 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-600">
          {LEDGER_KIND_LABELS_PT_BR[entry.kind] ?? entry.kind}
        </span>
        {entry.campaignId && entry.campaignName ? (
          <Link
            to={`/dashboard/campaigns/${entry.campaignId}/view`}
            className="mr-2 font-semibold text-brand-800 hover:text-brand-900 hover:underline"
          >
            {entry.campaignName}
          </Link>
        ) : null}
        <span className="text-slate-900">{entry.description}</span>
        {entry.campaignId && !entry.campaignName ? (
          <Link
            to={`/dashboard/campaigns/${entry.campaignId}/view`}
            className="ml-2 text-xs font-medium text-brand-700 hover:text-brand-900"
          >
            {t('balance.statement.viewCampaign')}
          </Link>
        ) : null}
        {entry.kind === 'topup' && entry.topupId ? (
          <Link
            to={`/dashboard/my-balance/topups/${entry.topupId}/receipt`}
            className="ml-2 text-xs font-medium text-brand-700 hover:text-brand-900"
          >
            {t('balance.statement.receipt')}
          </Link>
        ) : null}
      </td>
      <td
        className={cn(
          'col-start-2 row-start-1 text-right font-semibold tabular-nums sm:px-3 sm:py-3',
          positive ? 'text-emerald-700' : 'text-red-700',
        )}
      >
        {amount}
      </td>
      <td className="col-span-2 row-start-3 text-xs text-slate-500 tabular-nums sm:px-6 sm:py-3 sm:text-right sm:text-sm sm:text-slate-700">
        <span className="sm:hidden">{t('balance.statement.balance')}: </span>
        {formatBRL(entry.balanceAfterMillis)}
      </td>
    </tr>
  );
}
