import { formatBRL } from '@carteiro/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import {
  downloadUrl,
  ErrorPanel,
  errorText,
  formatDateTime,
  formatNumber,
  Stat,
} from '@/features/lists/components/kit';
import { confirmAction, toast } from '@/stores/app-store';
import { useCancelCampaign } from '../api/cancel-campaign';
import { useCampaignProgress } from '../api/get-progress';
import { reportCsvUrl, useCampaignReport } from '../api/get-report';
import { usePauseCampaign } from '../api/pause-campaign';
import { useResumeCampaign } from '../api/resume-campaign';
import { useSendCampaign } from '../api/send-campaign';
import { CAMPAIGNS_KEY, type Campaign, type CampaignSummary } from '../api/types';

const percent = (rate: number) => `${(rate * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;

/** "Enviar agora" with the confirmation dialog stating recipients and cost (the server reserves it). */
export function SendNowButton({ campaign, summary }: { campaign: Campaign; summary: CampaignSummary | undefined }) {
  const send = useSendCampaign();
  return (
    <Button
      className="w-full"
      disabled={send.isPending || !summary}
      onClick={() =>
        confirmAction({
          title: 'Enviar a campanha agora?',
          description: summary
            ? `${formatNumber(summary.recipients)} destinatário(s), custo de ${formatBRL(summary.costMillis)}. O valor é reservado do seu saldo agora; o que não for enviado volta para você.`
            : 'A campanha começa a ser enviada agora.',
          action: async () => {
            try {
              await send.mutateAsync(campaign.id);
              toast({ title: 'Envio iniciado', description: campaign.name, variant: 'success' });
            } catch (error) {
              toast({ title: 'Não foi possível enviar', description: errorText(error), variant: 'error' });
            }
          },
        })
      }
    >
      {send.isPending ? 'Iniciando…' : 'Enviar agora'}
    </Button>
  );
}

/** Live progress while sending/paused, with pause, resume and cancel. */
export function CampaignProgressCard({ campaign }: { campaign: Campaign }) {
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
  const done = data ? data.sent + data.failed + data.skipped : 0;
  const pct = data && data.recipients > 0 ? Math.min(100, Math.round((done / data.recipients) * 100)) : 0;
  const run = async (fn: () => Promise<unknown>, ok: string) => {
    try {
      await fn();
      toast({ title: ok, variant: 'success' });
      await progress.refetch();
    } catch (error) {
      toast({ title: 'Não foi possível concluir', description: errorText(error), variant: 'error' });
    }
  };
  return (
    <Card className="mb-6" data-testid="campaign-progress">
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-bold text-slate-900">
            {data?.status === 'paused' ? 'Envio pausado' : 'Enviando…'}
          </h2>
          <span className="text-sm tabular-nums text-slate-600">
            {data ? `${formatNumber(done)} de ${formatNumber(data.recipients)} · ${pct}%` : 'Carregando…'}
          </span>
        </div>
        <div
          className="h-3 w-full overflow-hidden rounded-full bg-slate-100"
          role="progressbar"
          aria-label="Progresso do envio"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
        >
          <div
            className={`h-full rounded-full transition-[width] duration-700 ${data?.status === 'paused' ? 'bg-amber-500' : 'bg-brand-600'}`}
            style={{ width: `${pct}%` }}
          />
        </div>
        {progress.isError ? <ErrorPanel error={progress.error} onRetry={() => progress.refetch()} /> : null}
        {data?.pausedReason ? (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">{data.pausedReason}</p>
        ) : null}
        {data ? (
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <Mini label="Enviados" value={formatNumber(data.sent)} />
            <Mini label="Falharam" value={formatNumber(data.failed)} />
            <Mini label="Faltam" value={formatNumber(data.remaining)} />
            <Mini
              label="Ritmo"
              value={`${data.ratePerSecond.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}/s`}
              hint={data.estimatedEnd ? `término ≈ ${formatDateTime(data.estimatedEnd)}` : undefined}
            />
          </dl>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {campaign.status === 'sending' ? (
            <Button
              variant="outline"
              disabled={pause.isPending}
              onClick={() => run(() => pause.mutateAsync(campaign.id), 'Envio pausado')}
            >
              Pausar
            </Button>
          ) : (
            <Button
              disabled={resume.isPending}
              onClick={() => run(() => resume.mutateAsync(campaign.id), 'Envio retomado')}
            >
              Retomar
            </Button>
          )}
          <Button
            variant="destructive"
            onClick={() =>
              confirmAction({
                title: 'Cancelar o envio?',
                description: 'Quem ainda não recebeu não receberá mais. O valor não usado volta para o seu saldo.',
                action: () => run(() => cancel.mutateAsync(campaign.id), 'Envio cancelado'),
              })
            }
          >
            Cancelar envio
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function Mini({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-lg font-bold tabular-nums text-slate-900">{value}</dd>
      {hint ? <dd className="text-xs text-slate-500">{hint}</dd> : null}
    </div>
  );
}

/** The campaign's results once sending has started. */
export function CampaignReportSection({ campaign }: { campaign: Campaign }) {
  const started = !['draft', 'scheduled'].includes(campaign.status);
  const report = useCampaignReport(campaign.id, started);
  if (!started) return null;
  if (report.isPending) return null;
  if (report.isError) return <ErrorPanel error={report.error} onRetry={() => report.refetch()} />;
  const r = report.data;
  return (
    <section className="mt-6 space-y-4" aria-label="Relatório" data-testid="campaign-report">
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-bold text-slate-900">Relatório</h2>
        <Button variant="outline" size="sm" onClick={() => downloadUrl(reportCsvUrl(campaign.id))}>
          Baixar CSV por destinatário
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Stat
          label="Entregues"
          value={formatNumber(r.delivered)}
          hint={`${formatNumber(r.failed)} falharam · ${formatNumber(r.pending)} pendentes`}
        />
        <Stat
          label="Aberturas"
          value={percent(r.opens.rate)}
          hint={`${formatNumber(r.opens.uniqueHuman)} pessoas · ${formatNumber(r.opens.machine)} automáticas`}
        />
        <Stat
          label="Cliques"
          value={percent(r.clicks.rate)}
          hint={`${formatNumber(r.clicks.unique)} pessoas · ${percent(r.clicks.clickToOpenRate)} de quem abriu`}
        />
        <Stat
          label="Descadastros e queixas"
          value={formatNumber(r.unsubscribes + r.complaints)}
          hint={`${formatNumber(r.bounces.hard + r.bounces.soft + r.bounces.policy)} devoluções`}
        />
      </div>
      {r.links.length > 0 ? (
        <Card className="overflow-hidden">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-4 py-2">Link</th>
                <th className="px-4 py-2 text-right">Cliques</th>
                <th className="px-4 py-2 text-right">Pessoas</th>
              </tr>
            </thead>
            <tbody>
              {r.links.map((link) => (
                <tr key={link.id} className="border-t border-slate-100">
                  <td className="max-w-xs truncate px-4 py-2 text-slate-700">{link.url}</td>
                  <td className="px-4 py-2 text-right tabular-nums">{formatNumber(link.clicks)}</td>
                  <td className="px-4 py-2 text-right tabular-nums">{formatNumber(link.uniqueClicks)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      ) : null}
    </section>
  );
}
