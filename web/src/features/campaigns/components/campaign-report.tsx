import { plural, SKIP_REASON_LABELS, SKIP_REASONS, skipReasonLabel } from '@carteiro/shared';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { ErrorPanel, Stat, TableShell, td, th } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { type RecipientActivity, useCampaignRecipients } from '../api/get-recipients';
import { type CampaignReport, reportCsvUrl, useCampaignReport } from '../api/get-report';
import type { Campaign } from '../api/types';
import {
  activitySummary,
  BOUNCE_LABELS,
  bounceRows,
  formatCount,
  formatRate,
  hourlyPoints,
  RECIPIENT_STATUS_LABELS,
  totalBounces,
} from './report-data';

// Recharts is heavy: its chunk loads only when a report has something to draw.
const ActivityChart = lazy(() => import('./report-charts').then((m) => ({ default: m.ActivityChart })));
const LinksChart = lazy(() => import('./report-charts').then((m) => ({ default: m.LinksChart })));
const BouncesChart = lazy(() => import('./report-charts').then((m) => ({ default: m.BouncesChart })));

const SEARCH_DEBOUNCE_MS = 300;

/** The campaign's results once sending has started: numbers, charts over time, links, recipients, CSV. */
export function CampaignReportSection({ campaign, timeZone }: { campaign: Campaign; timeZone: string }) {
  const started = !['draft', 'scheduled'].includes(campaign.status);
  const report = useCampaignReport(campaign.id, started, campaign.status === 'sending');
  if (!started) return null;
  return (
    <section className="mt-8 space-y-4" aria-labelledby="report-title" data-testid="campaign-report">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="report-title" className="text-xl font-bold text-slate-900">
          Relatório
        </h2>
        <a href={reportCsvUrl(campaign.id)} download className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          Exportar CSV por destinatário
        </a>
      </div>
      {report.isPending ? (
        <Card className="p-6">
          <Spinner label="Carregando o relatório…" />
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
  const points = hourlyPoints(r.series, timeZone);
  const hasActivity = points.some((p) => p.opens > 0 || p.clicks > 0);
  const bounces = totalBounces(r.bounces);
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-3" data-testid="report-numbers">
        <Stat
          label="Entregues"
          value={formatCount(r.delivered)}
          hint={[
            `de ${formatCount(r.recipients)} ${plural(r.recipients, 'destinatário', 'destinatários')}`,
            `${formatCount(r.failed)} ${plural(r.failed, 'falhou', 'falharam')}`,
            r.skipped > 0 ? `${formatCount(r.skipped)} ${plural(r.skipped, 'não enviado', 'não enviados')}` : null,
            r.pending > 0 ? `${formatCount(r.pending)} ${plural(r.pending, 'pendente', 'pendentes')}` : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        />
        <Stat
          label="Aberturas únicas"
          value={formatCount(r.opens.uniqueHuman)}
          hint={`${formatRate(r.opens.rate)} dos entregues · ${formatCount(r.opens.machine)} ${plural(r.opens.machine, 'automática', 'automáticas')} à parte`}
        />
        <Stat
          label="Cliques únicos"
          value={formatCount(r.clicks.unique)}
          hint={`${formatRate(r.clicks.rate)} dos entregues · ${formatRate(r.clicks.clickToOpenRate)} de quem abriu`}
        />
        <Stat
          label="Descadastros"
          value={formatCount(r.unsubscribes)}
          hint={r.delivered > 0 ? `${formatRate(r.unsubscribes / r.delivered)} dos entregues` : undefined}
        />
        <Stat
          label="Devoluções"
          value={formatCount(bounces)}
          hint={`${formatCount(r.bounces.hard)} permanentes · ${formatCount(r.bounces.soft)} temporárias · ${formatCount(r.bounces.policy)} por política`}
        />
        <Stat
          label="Reclamações de spam"
          value={formatCount(r.complaints)}
          hint={r.delivered > 0 ? `${formatRate(r.complaints / r.delivered)} dos entregues` : undefined}
        />
      </div>
      {r.skipped > 0 ? <SkipReasons report={r} /> : null}
      {r.pausedReason ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
          {r.pausedReason}
        </p>
      ) : null}
      {r.abTest ? <AbTestComparison ab={r.abTest} timeZone={timeZone} /> : null}

      <ChartCard title="Aberturas e cliques por hora" testId="report-activity">
        {hasActivity ? (
          <>
            <p className="mb-3 text-sm text-slate-600" data-testid="activity-summary">
              {activitySummary(points)}
            </p>
            <figure aria-label="Gráfico de aberturas e cliques por hora" data-testid="activity-chart">
              <Suspense fallback={<ChartFallback />}>
                <div aria-hidden="true">
                  <ActivityChart points={points} />
                </div>
              </Suspense>
            </figure>
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer font-medium text-brand-700">Ver os dados em tabela</summary>
              <table className="mt-2 w-full text-left">
                <caption className="sr-only">Aberturas e cliques por hora</caption>
                <thead>
                  <tr className="text-xs uppercase tracking-wide text-slate-500">
                    <th className="py-1 font-semibold">Hora</th>
                    <th className="py-1 text-right font-semibold">Aberturas</th>
                    <th className="py-1 text-right font-semibold">Cliques</th>
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
          <Empty>
            Ainda não há aberturas nem cliques. Os números aparecem aqui assim que os destinatários abrirem o e-mail ou
            clicarem nos links — acompanhe por algumas horas depois do envio.
          </Empty>
        )}
      </ChartCard>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <ChartCard title="Cliques por link" testId="report-links">
          {r.links.length === 0 ? (
            <Empty>Este e-mail não tem links rastreados.</Empty>
          ) : (
            <>
              {r.links.some((l) => l.uniqueClicks > 0) ? (
                <figure aria-label="Gráfico de pessoas que clicaram em cada link" className="mb-3">
                  <Suspense fallback={<ChartFallback />}>
                    <div aria-hidden="true">
                      <LinksChart links={r.links} />
                    </div>
                  </Suspense>
                </figure>
              ) : null}
              <div className="overflow-x-auto">
                <table className="w-full table-fixed text-left text-sm">
                  <caption className="sr-only">Cliques em cada link do e-mail</caption>
                  <colgroup>
                    <col />
                    <col className="w-20" />
                    <col className="w-20" />
                  </colgroup>
                  <thead>
                    <tr className="text-xs uppercase tracking-wide text-slate-500">
                      <th className="py-2 pr-3 font-semibold">Link</th>
                      <th className="py-2 pr-3 text-right font-semibold">Cliques</th>
                      <th className="py-2 text-right font-semibold">Pessoas</th>
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
        <ChartCard title="Devoluções por tipo" testId="report-bounces">
          {bounces === 0 ? (
            <Empty>Nenhuma devolução até agora.</Empty>
          ) : (
            <>
              <figure aria-label="Gráfico de devoluções por tipo" className="mb-3">
                <Suspense fallback={<ChartFallback />}>
                  <div aria-hidden="true">
                    <BouncesChart rows={bounceRows(r.bounces)} />
                  </div>
                </Suspense>
              </figure>
              <dl className="grid grid-cols-3 gap-2 text-sm">
                {bounceRows(r.bounces).map((row) => (
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

const shortDateTime = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone }).format(new Date(iso));

/** The A/B test: each variant's numbers over the test share, the winner and why (or when it will be chosen). */
export function AbTestComparison({ ab, timeZone }: { ab: NonNullable<CampaignReport['abTest']>; timeZone: string }) {
  const byOpens = ab.criterion === 'opens';
  return (
    <ChartCard title="Teste A/B" testId="ab-report">
      <p className="mb-3 text-sm text-slate-600">
        {ab.testPercent}% do público recebeu o teste, dividido entre {ab.variants.length} variantes; vencedor pela{' '}
        {byOpens ? 'taxa de aberturas (aberturas automáticas não contam)' : 'taxa de cliques'} após {ab.waitHours}{' '}
        {plural(ab.waitHours, 'hora', 'horas')}.
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Comparação das variantes do teste A/B</caption>
          <thead>
            <tr className="text-xs uppercase tracking-wide text-slate-500">
              <th className="py-2 pr-3 font-semibold">Variante</th>
              <th className="py-2 pr-3 font-semibold">Assunto</th>
              <th className="py-2 pr-3 text-right font-semibold">Entregues</th>
              <th className="py-2 pr-3 text-right font-semibold">Aberturas únicas</th>
              <th className="py-2 text-right font-semibold">Cliques únicos</th>
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
                      Vencedora
                    </Badge>
                  ) : null}
                </td>
                <td className="py-2 pr-3 text-slate-700">
                  {v.subject}
                  {v.fromName ? <span className="block text-xs text-slate-500">Remetente: {v.fromName}</span> : null}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  {formatCount(v.delivered)}
                  <span className="block text-xs text-slate-500">de {formatCount(v.recipients)}</span>
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
        {ab.winner === null
          ? ` Escolha prevista para ${shortDateTime(ab.decideAt, timeZone)}; ${formatCount(ab.held)} ${plural(ab.held, 'destinatário aguarda', 'destinatários aguardam')} o vencedor.`
          : ab.decidedAt
            ? ` Escolhida em ${shortDateTime(ab.decidedAt, timeZone)} e enviada ao restante do público.`
            : ''}
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
  return (
    <div className="flex h-40 items-center justify-center">
      <Spinner label="Carregando o gráfico…" />
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
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const recipients = useCampaignRecipients(campaignId, term, true);
  const items = recipients.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Card data-testid="report-recipients">
      <CardContent className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h3 className="font-bold text-slate-900">Destinatários</h3>
          <div className="w-full sm:w-72">
            <label htmlFor="recipient-search" className="sr-only">
              Buscar destinatário por e-mail
            </label>
            <Input
              id="recipient-search"
              type="search"
              placeholder="Buscar por e-mail…"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </div>
        {recipients.isPending ? (
          <Spinner label="Carregando destinatários…" />
        ) : recipients.isError ? (
          <ErrorPanel error={recipients.error} onRetry={() => recipients.refetch()} />
        ) : items.length === 0 ? (
          <Empty>
            {term
              ? `Nenhum destinatário com “${term}” no e-mail.`
              : 'Nenhum destinatário ainda: o envio está começando.'}
          </Empty>
        ) : (
          <>
            <TableShell>
              <caption className="sr-only">Atividade de cada destinatário</caption>
              <thead>
                <tr>
                  <th className={th}>E-mail</th>
                  <th className={th}>Situação</th>
                  {ab ? <th className={th}>Variante</th> : null}
                  <th className={th}>Enviada em</th>
                  <th className={`${th} text-right`}>Aberturas</th>
                  <th className={`${th} text-right`}>Cliques</th>
                  <th className={th}>Ocorrências</th>
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
                  {recipients.isFetchingNextPage ? 'Carregando…' : 'Carregar mais'}
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
  const parts = SKIP_REASONS.filter((reason) => (r.skippedByReason[reason] ?? 0) > 0).map(
    (reason) => `${SKIP_REASON_LABELS[reason]}: ${formatCount(r.skippedByReason[reason] ?? 0)}`,
  );
  if (parts.length === 0) return null;
  return (
    <p className="text-sm text-slate-600" data-testid="skip-reasons">
      Não enviados, por motivo: {parts.join(' · ')}
    </p>
  );
}

function RecipientRow({ item, timeZone, ab }: { item: RecipientActivity; timeZone: string; ab: boolean }) {
  const when = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat('pt-BR', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso))
      : '—';
  const marks = [
    item.unsubscribed ? { text: 'descadastrou', tone: 'warning' as const } : null,
    item.bounce ? { text: BOUNCE_LABELS[item.bounce] ?? 'devolução', tone: 'danger' as const } : null,
    item.complained ? { text: 'reclamou de spam', tone: 'danger' as const } : null,
    item.skipReason ? { text: skipReasonLabel(item.skipReason).toLowerCase(), tone: 'neutral' as const } : null,
  ].filter((m) => m !== null);
  return (
    <tr className="hover:bg-slate-50" data-testid="recipient-row">
      <td className={`${td} max-w-[16rem] truncate font-medium text-slate-900`} title={item.email}>
        {item.email}
      </td>
      <td className={td}>
        <Badge tone={item.status === 'sent' ? 'success' : item.status === 'failed' ? 'danger' : 'neutral'}>
          {RECIPIENT_STATUS_LABELS[item.status] ?? item.status}
        </Badge>
      </td>
      {ab ? (
        <td className={td} title={item.variant ? undefined : 'Recebe a variante vencedora quando o teste terminar'}>
          {item.variant ?? 'aguardando'}
        </td>
      ) : null}
      <td className={`${td} whitespace-nowrap`}>{when(item.sentAt)}</td>
      <td
        className={`${td} text-right tabular-nums`}
        title={item.lastOpenAt ? `última: ${when(item.lastOpenAt)}` : undefined}
      >
        {formatCount(item.opens)}
      </td>
      <td
        className={`${td} text-right tabular-nums`}
        title={item.lastClickAt ? `último: ${when(item.lastClickAt)}` : undefined}
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
