import { isSkipReason } from '@carteiro/shared';
import { useEffect, useState } from 'react';
import { ErrorPanel, TableShell, td, th } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { formatCount, formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { type RecipientActivity, useCampaignRecipients } from '../api/get-recipients';
import { bounceText, recipientStatusText } from './report-data';
import { Empty } from './report-parts';

const SEARCH_DEBOUNCE_MS = 300;

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
