import { DEFAULT_TIME_ZONE, formatBRL } from '@carteiro/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorPanel, formatDateTime, formatNumber } from '@/components/kit';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import { confirmAction, toast } from '@/stores/app-store';
import { useCancelCampaign } from '../api/cancel-campaign';
import { useCampaignProgress } from '../api/get-progress';
import { usePauseCampaign } from '../api/pause-campaign';
import { useResumeCampaign } from '../api/resume-campaign';
import { useSendCampaign } from '../api/send-campaign';
import { CAMPAIGNS_KEY, type Campaign, type CampaignSummary } from '../api/types';
import { countForm } from './count-form';
import { MissingChecks, useSendChecklist } from './send-checklist';

/**
 * "Enviar agora": when something is missing (shared send checklist) the dialog lists it with links to fix it and
 * offers no "Continuar"; otherwise the confirmation states recipients and cost (the server reserves it).
 */
export function SendNowButton({ campaign, summary }: { campaign: Campaign; summary: CampaignSummary | undefined }) {
  const { t } = useI18n();
  const send = useSendCampaign();
  const missing = useSendChecklist(campaign, summary).filter((item) => !item.ok);
  const [showMissing, setShowMissing] = useState(false);
  return (
    <>
      <AlertDialog
        open={showMissing && missing.length > 0}
        title={t('campaigns.live.missingTitle')}
        description={t('campaigns.live.missingBody')}
        onCancel={() => setShowMissing(false)}
        footer={
          <Button variant="outline" onClick={() => setShowMissing(false)}>
            {t('common.close')}
          </Button>
        }
      >
        <MissingChecks items={missing} />
      </AlertDialog>
      <Button
        className="w-full"
        disabled={send.isPending || !summary}
        onClick={() =>
          missing.length > 0
            ? setShowMissing(true)
            : confirmAction({
                title: t('campaigns.live.confirmTitle'),
                description: summary
                  ? t(`campaigns.live.confirmBody.${countForm(summary.recipients)}`, {
                      count: formatNumber(summary.recipients),
                      cost: formatBRL(summary.costMillis),
                    })
                  : t('campaigns.live.confirmBodyPending'),
                action: async () => {
                  try {
                    await send.mutateAsync(campaign.id);
                    toast({ title: t('campaigns.live.started'), description: campaign.name, variant: 'success' });
                  } catch (error) {
                    toast({ title: t('campaigns.live.sendFailed'), description: errorText(error), variant: 'error' });
                  }
                },
              })
        }
      >
        {send.isPending ? t('campaigns.live.starting') : t('campaigns.live.sendNow')}
      </Button>
    </>
  );
}

/** Live progress while sending/paused, with pause, resume and cancel. */
export function CampaignProgressCard({ campaign }: { campaign: Campaign }) {
  const { t } = useI18n();
  const live = campaign.status === 'sending' || campaign.status === 'paused';
  const progress = useCampaignProgress(campaign.id, live);
  const pause = usePauseCampaign();
  const resume = useResumeCampaign();
  const cancel = useCancelCampaign();
  const client = useQueryClient();
  const reported = progress.data?.status;
  // When the engine finishes (or auto-pauses) the campaign, refresh it so the page follows its new status.
  useEffect(() => {
    if (reported && reported !== campaign.status) void client.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
  }, [reported, campaign.status, client]);
  if (!live) return null;
  const data = progress.data;
  // The engine's word wins over the (possibly older) campaign row: an auto-pause shows at once.
  const status = data?.status ?? campaign.status;
  const paused = status === 'paused';
  const done = data ? data.sent + data.failed + data.skipped : 0;
  const pct = data && data.recipients > 0 ? Math.min(100, Math.round((done / data.recipients) * 100)) : 0;
  const busy = pause.isPending || resume.isPending || cancel.isPending;
  const run = async (fn: () => Promise<unknown>, ok: string) => {
    try {
      await fn();
      toast({ title: ok, variant: 'success' });
      await progress.refetch();
    } catch (error) {
      toast({ title: t('campaigns.live.actionFailed'), description: errorText(error), variant: 'error' });
    }
  };
  return (
    <Card className="mb-6" data-testid="campaign-progress">
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-bold text-slate-900" aria-live="polite">
            {paused ? t('campaigns.live.paused') : t('campaigns.live.sending')}
          </h2>
          <span className="text-sm tabular-nums text-slate-600">
            {data
              ? t('campaigns.live.progress', {
                  done: formatNumber(done),
                  total: formatNumber(data.recipients),
                  percent: pct,
                })
              : t('common.loading')}
          </span>
        </div>
        <div
          className="h-3 w-full overflow-hidden rounded-full bg-slate-100"
          role="progressbar"
          aria-label={t('campaigns.live.progressLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-valuetext={
            data
              ? t('campaigns.live.progressValue', {
                  done: formatNumber(done),
                  total: formatNumber(data.recipients),
                  percent: pct,
                })
              : undefined
          }
        >
          <div
            className={`h-full rounded-full transition-[width] duration-700 ${paused ? 'bg-amber-500' : 'bg-brand-600'}`}
            style={{ width: `${pct}%` }}
          />
        </div>
        {progress.isError ? <ErrorPanel error={progress.error} onRetry={() => progress.refetch()} /> : null}
        {data?.pausedReason ? (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
            {data.pausedReason}
          </p>
        ) : null}
        {data ? (
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3 lg:grid-cols-5">
            <Mini label={t('campaigns.live.sent')} value={formatNumber(data.sent)} />
            <Mini
              label={t('campaigns.live.failed')}
              value={formatNumber(data.failed)}
              hint={
                data.skipped > 0
                  ? t(`campaigns.live.skipped.${countForm(data.skipped)}`, { count: formatNumber(data.skipped) })
                  : undefined
              }
            />
            <Mini label={t('campaigns.live.remaining')} value={formatNumber(data.remaining)} />
            <Mini
              label={t('campaigns.live.rate')}
              value={
                paused
                  ? '—'
                  : t('campaigns.live.rateValue', {
                      rate: data.ratePerSecond.toLocaleString('pt-BR', { maximumFractionDigits: 1 }),
                    })
              }
              hint={paused ? undefined : t('campaigns.live.rateHint')}
            />
            <Mini
              label={data.abTestDecideAt ? t('campaigns.live.abWinner') : t('campaigns.live.estimatedEnd')}
              value={
                paused
                  ? t('campaigns.live.pausedValue')
                  : data.abTestDecideAt
                    ? formatTime(data.abTestDecideAt)
                    : data.estimatedEnd
                      ? formatTime(data.estimatedEnd)
                      : data.remaining > 0
                        ? t('campaigns.live.calculating')
                        : t('campaigns.live.finishing')
              }
              hint={
                !paused && data.abTestDecideAt
                  ? t('campaigns.live.abWinnerHint', { when: formatDateTime(data.abTestDecideAt) })
                  : !paused && data.estimatedEnd
                    ? formatDateTime(data.estimatedEnd)
                    : undefined
              }
            />
          </dl>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {paused ? (
            <Button
              disabled={busy}
              onClick={() => run(() => resume.mutateAsync(campaign.id), t('campaigns.live.resumed'))}
            >
              {resume.isPending ? t('campaigns.live.resuming') : t('campaigns.live.resume')}
            </Button>
          ) : (
            <Button
              variant="outline"
              disabled={busy}
              onClick={() => run(() => pause.mutateAsync(campaign.id), t('campaigns.live.paused'))}
            >
              {pause.isPending ? t('campaigns.live.pausing') : t('campaigns.live.pause')}
            </Button>
          )}
          <Button
            variant="destructive"
            disabled={busy}
            onClick={() =>
              confirmAction({
                title: t('campaigns.live.cancelTitle'),
                description: data
                  ? t(`campaigns.live.cancelBody.${countForm(data.remaining)}`, { count: formatNumber(data.remaining) })
                  : t('campaigns.live.cancelBodyPending'),
                action: () => run(() => cancel.mutateAsync(campaign.id), t('campaigns.live.cancelled')),
              })
            }
          >
            {t('campaigns.live.cancel')}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

const timeFormat = new Intl.DateTimeFormat('pt-BR', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: DEFAULT_TIME_ZONE,
});
const formatTime = (iso: string) => timeFormat.format(new Date(iso));

function Mini({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-lg font-bold tabular-nums text-slate-900">{value}</dd>
      {hint ? <dd className="text-xs text-slate-500">{hint}</dd> : null}
    </div>
  );
}
