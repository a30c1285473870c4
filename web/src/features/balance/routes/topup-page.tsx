import { formatBRL } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { SuccessMark } from '@/components/kit';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { toastError, toastSuccess } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';
import { useCopyToClipboard } from '@/lib/use-copy';
import { usePageTitle } from '@/lib/use-page-title';
import { getTopup, simulateTopupPayment, topupQueryKey } from '../api/topups';

/** "mm:ss" (or "h:mm:ss") left until `expiresAt`, never negative. */
export function formatTimeLeft(expiresAt: string, now: number): string {
  const total = Math.max(0, Math.floor((new Date(expiresAt).getTime() - now) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** The current time, refreshed every second while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** Polling interval while the payment is pending. */
export const TOPUP_POLL_MS = 3000;

/** The Pix page of one top-up: QR code, "copia e cola" with a copy button, txid, expiry; turns green when paid. */
export function TopupPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const { copied, copy } = useCopyToClipboard();
  const brCodeField = useRef<HTMLTextAreaElement>(null);
  const wasPending = useRef(false);
  const topup = useQuery({
    queryKey: topupQueryKey(id),
    queryFn: ({ signal }) => getTopup(id, signal),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? TOPUP_POLL_MS : false),
    refetchIntervalInBackground: true,
    staleTime: 0,
  });
  const status = topup.data?.status;
  const now = useNow(status === 'pending');
  const [simulating, setSimulating] = useState(false);
  const expired = topup.data ? new Date(topup.data.expiresAt).getTime() <= now : false;

  // When the countdown reaches zero, ask the server once more (it marks the top-up expired, or paid).
  useEffect(() => {
    if (status === 'pending' && expired) void topup.refetch();
  }, [status, expired, topup.refetch]);

  async function simulate() {
    setSimulating(true);
    try {
      await simulateTopupPayment(id);
      await topup.refetch();
    } catch (error) {
      toastError(t('balance.topup.simulate'), error);
    } finally {
      setSimulating(false);
    }
  }

  usePageTitle(t('balance.topup.pageTitle'));

  useEffect(() => {
    if (status === 'pending') wasPending.current = true;
    if (status === 'paid' && wasPending.current) {
      wasPending.current = false;
      toastSuccess(t('balance.topup.paidToast'), topup.data ? formatBRL(topup.data.amountMillis) : undefined);
      void queryClient.invalidateQueries({ queryKey: ['billing'] });
      void queryClient.invalidateQueries({ queryKey: ['session'] });
    }
  }, [status, t, topup.data]);

  return (
    <div className="space-y-6">
      <PageHeader title={t('balance.topup.pageTitle')}>
        <Link to="/dashboard/my-balance" className={buttonVariants({ variant: 'ghost' })}>
          {t('balance.backToBalance')}
        </Link>
      </PageHeader>
      {topup.isPending ? (
        <div className="flex justify-center py-20">
          <Spinner label={t('common.loading')} />
        </div>
      ) : topup.isError ? (
        <Card role="alert">
          <CardContent className="flex flex-col items-start gap-3">
            <p className="font-semibold text-slate-900">{t('balance.topup.loadError')}</p>
            <p className="text-sm text-slate-600">{errorText(topup.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void topup.refetch()}>
              {t('common.retry')}
            </Button>
          </CardContent>
        </Card>
      ) : topup.data.status === 'paid' ? (
        <Card className="border-emerald-300 bg-emerald-50" data-testid="topup-paid">
          <CardContent className="flex flex-col items-center gap-4 py-10 text-center">
            <SuccessMark className="bg-emerald-600 text-white" />
            <span className="rounded-full bg-emerald-600 px-3 py-1 text-sm font-semibold text-white" role="status">
              {t('balance.topup.paidBadge')}
            </span>
            <h2 className="text-2xl font-bold text-emerald-900">{t('balance.topup.paidTitle')}</h2>
            <p className="text-emerald-900">
              {t('balance.topup.paidBody', { amount: formatBRL(topup.data.amountMillis) })}
            </p>
            <div className="flex flex-wrap justify-center gap-3">
              <Link to={`/dashboard/my-balance/topups/${topup.data.id}/receipt`} className={buttonVariants()}>
                {t('balance.topup.viewReceipt')}
              </Link>
              <Link to="/dashboard/my-balance" className={buttonVariants({ variant: 'outline' })}>
                {t('balance.backToBalance')}
              </Link>
            </div>
          </CardContent>
        </Card>
      ) : topup.data.status !== 'pending' ? (
        <Card role="alert">
          <CardContent className="flex flex-col items-start gap-3">
            <p className="font-semibold text-slate-900">
              {topup.data.status === 'review' ? t('balance.topup.reviewTitle') : t('balance.topup.expiredTitle')}
            </p>
            <p className="text-sm text-slate-600">
              {topup.data.status === 'review' ? t('balance.topup.reviewBody') : t('balance.topup.expiredBody')}
            </p>
            <Link to="/dashboard/my-balance" className={buttonVariants({ size: 'sm' })}>
              {t('balance.addCredits')}
            </Link>
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardContent className="grid gap-8 md:grid-cols-[auto_1fr]">
            <div className="flex flex-col items-center gap-3">
              <img
                src={topup.data.qrSvgDataUrl}
                alt={t('balance.topup.qrAlt')}
                width={240}
                height={240}
                className="h-60 w-60 rounded-xl border border-slate-200 bg-white p-2"
              />
              <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
                <Spinner /> {t('balance.topup.waiting')}
              </p>
              <p className="text-lg font-semibold tabular-nums text-slate-900" data-testid="topup-countdown">
                {t('balance.topup.timeLeft', { time: formatTimeLeft(topup.data.expiresAt, now) })}
              </p>
              {topup.data.canSimulatePayment ? (
                <div className="flex flex-col items-center gap-1 rounded-lg border border-dashed border-amber-400 bg-amber-50 p-3">
                  <Button variant="outline" size="sm" disabled={simulating} onClick={() => void simulate()}>
                    {t('balance.topup.simulate')}
                  </Button>
                  <p className="max-w-60 text-center text-xs text-amber-900">{t('balance.topup.simulateHint')}</p>
                </div>
              ) : null}
            </div>
            <div className="min-w-0 space-y-5">
              {topup.data.mode === 'static' ? (
                <div className="rounded-lg border border-amber-300 bg-amber-50 p-3" data-testid="topup-manual">
                  <p className="text-sm font-semibold text-amber-900">{t('balance.topup.manualBadge')}</p>
                  <p className="text-sm text-amber-900">{t('balance.topup.manualBody')}</p>
                </div>
              ) : (
                <p className="inline-flex rounded-full bg-emerald-50 px-3 py-1 text-xs font-semibold text-emerald-800">
                  {t('balance.topup.autoBadge')}
                </p>
              )}
              <div>
                <p className="text-sm text-slate-600">{t('balance.topup.amount')}</p>
                <p className="text-3xl font-bold tabular-nums text-slate-900">{formatBRL(topup.data.amountMillis)}</p>
              </div>
              <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
                <li>{t('balance.topup.step1')}</li>
                <li>{t('balance.topup.step2')}</li>
                {/* A static Pix is confirmed by hand: "turns green by itself" would promise seconds, not hours. */}
                <li>{t(topup.data.mode === 'static' ? 'balance.topup.step3Manual' : 'balance.topup.step3')}</li>
              </ol>
              <div>
                <label htmlFor="br-code" className="text-sm font-medium text-slate-800">
                  {t('balance.topup.copyPaste')}
                </label>
                <textarea
                  ref={brCodeField}
                  id="br-code"
                  readOnly
                  value={topup.data.brCode}
                  rows={3}
                  className="mt-1.5 block w-full resize-none break-all rounded-lg border border-slate-300 bg-slate-50 p-3 font-mono text-xs text-slate-800"
                  onFocus={(e) => e.currentTarget.select()}
                />
                <Button
                  className="mt-2"
                  variant={copied ? 'secondary' : 'primary'}
                  onClick={() => void copy(topup.data.brCode, brCodeField.current)}
                >
                  {copied ? t('balance.topup.copied') : t('balance.topup.copy')}
                </Button>
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="text-slate-500">{t('balance.topup.txid')}</dt>
                <dd className="break-all font-mono text-slate-900">{topup.data.txid}</dd>
                <dt className="text-slate-500">{t('balance.topup.expires')}</dt>
                <dd className="text-slate-900">{formatDateTime(topup.data.expiresAt)}</dd>
              </dl>
            </div>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
