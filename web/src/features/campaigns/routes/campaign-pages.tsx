import { abVariantLetter, formatBRL, isDeletable, isEditable, timeZoneLabel } from '@carteiro/shared';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, formatDateTime, formatNumber, LoadingPanel, Stat, TableShell, td, th } from '@/components/kit';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { useLists } from '@/lib/queries/lists';
import { fillSample } from '@/lib/sample-liquid';
import { usePageTitle } from '@/lib/use-page-title';
import { confirmAction, toast, useAccount } from '@/stores/app-store';
import { useDeleteCampaign } from '../api/delete-campaign';
import { useDuplicateCampaign } from '../api/duplicate-campaign';
import { useCampaign } from '../api/get-campaign';
import { useCampaigns } from '../api/get-campaigns';
import { useCampaignSummary } from '../api/get-summary';
import { useScheduleCampaign } from '../api/schedule-campaign';
import type { Campaign, CampaignSummary } from '../api/types';
import { useUnscheduleCampaign } from '../api/unschedule-campaign';
import { abTestSummary } from '../components/ab-test-fields';
import { AbTestSend } from '../components/ab-test-send';
import { CampaignAudienceItems } from '../components/campaign-audience-items';
import { CampaignForm } from '../components/campaign-form';
import { CampaignProgressCard, SendNowButton } from '../components/campaign-live';
import { CampaignReportSection } from '../components/campaign-report';
import { ResendNonOpeners } from '../components/resend-non-openers';
import { SendChecklistCard, useSendChecklist } from '../components/send-checklist';
import { SenderAlignmentCheck } from '../components/sender-alignment';
import { CampaignStatusBadge } from '../components/status-badge';
import { DEFAULT_TIME_ZONE, formatInZone, toZonedLocal } from '../components/zoned';

// FullCalendar loads only on the calendar route.
const CalendarView = lazy(() => import('../components/calendar-view'));

function useTimeZone(): string {
  const account = useAccount();
  return typeof account?.timeZone === 'string' ? account.timeZone : DEFAULT_TIME_ZONE;
}

function pct(part: number, total: number): string {
  return total > 0 ? `${((part / total) * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%` : '—';
}

export function CampaignsPage() {
  usePageTitle('Campanhas');
  const campaigns = useCampaigns();
  return (
    <div>
      <PageHeader title="Campanhas">
        <div className="flex flex-wrap gap-2">
          <Link to="/dashboard/templates" className={buttonVariants({ variant: 'outline' })}>
            Modelos
          </Link>
          <Link to="/dashboard/campaigns/calendar" className={buttonVariants({ variant: 'outline' })}>
            Calendário
          </Link>
          <Link to="/dashboard/campaigns/new" className={buttonVariants()}>
            Nova campanha
          </Link>
        </div>
      </PageHeader>
      {campaigns.isPending ? (
        <LoadingPanel label="Carregando campanhas…" />
      ) : campaigns.isError ? (
        <ErrorPanel error={campaigns.error} onRetry={() => campaigns.refetch()} />
      ) : campaigns.data.length === 0 ? (
        <EmptyState
          title="Nenhuma campanha ainda"
          description="Crie sua primeira campanha: escolha as listas, monte o e-mail e agende o envio."
          action={
            <Link to="/dashboard/campaigns/new" className={buttonVariants()}>
              Criar campanha
            </Link>
          }
        />
      ) : (
        <TableShell>
          <thead>
            <tr>
              <th className={th}>Campanha</th>
              <th className={th}>Situação</th>
              <th className={`${th} text-right`}>Enviados</th>
              <th className={`${th} text-right`}>Aberturas</th>
              <th className={`${th} text-right`}>Cliques</th>
              <th className={th}>Atualizada</th>
            </tr>
          </thead>
          <tbody>
            {campaigns.data.map((campaign) => (
              <tr key={campaign.id} className="hover:bg-slate-50">
                <td className={td}>
                  <Link
                    to={`/dashboard/campaigns/${campaign.id}/view`}
                    className="font-semibold text-brand-800 hover:underline"
                  >
                    {campaign.name}
                  </Link>
                  <p className="max-w-xs truncate text-xs text-slate-500">
                    {campaign.subject ? fillSample(campaign.subject) : 'Sem assunto'}
                  </p>
                </td>
                <td className={td}>
                  <CampaignStatusBadge status={campaign.status} />
                  {campaign.status === 'scheduled' && campaign.scheduledAt ? (
                    <p className="mt-1 text-xs text-slate-500">{formatDateTime(campaign.scheduledAt)}</p>
                  ) : null}
                </td>
                <td className={`${td} text-right tabular-nums`}>{formatNumber(campaign.counters.sent)}</td>
                <td className={`${td} text-right tabular-nums`}>
                  {pct(campaign.counters.opened, campaign.counters.sent)}
                </td>
                <td className={`${td} text-right tabular-nums`}>
                  {pct(campaign.counters.clicked, campaign.counters.sent)}
                </td>
                <td className={td}>{formatDateTime(campaign.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </TableShell>
      )}
    </div>
  );
}

export function NewCampaignPage() {
  usePageTitle('Nova campanha');
  return (
    <div>
      <Link to="/dashboard/campaigns" className="text-sm text-brand-700 hover:underline">
        ← Campanhas
      </Link>
      <PageHeader title="Nova campanha" />
      <CampaignForm campaign={null} />
    </div>
  );
}

/** `/dashboard/campaigns/edit` (spec §2, no id: a new one) and `/dashboard/campaigns/:id/edit`. */
export function EditCampaignPage() {
  const { id = '' } = useParams();
  const campaign = useCampaign(id);
  usePageTitle('Editar campanha');
  if (!id) return <NewCampaignPage />;
  if (campaign.isPending) return <LoadingPanel />;
  if (campaign.isError) return <ErrorPanel error={campaign.error} onRetry={() => campaign.refetch()} />;
  return (
    <div>
      <Link to={`/dashboard/campaigns/${id}/view`} className="text-sm text-brand-700 hover:underline">
        ← {campaign.data.name}
      </Link>
      <PageHeader title="Editar campanha" />
      <CampaignForm key={campaign.data.id} campaign={campaign.data} />
    </div>
  );
}

export function CampaignCalendarPage() {
  usePageTitle('Calendário de campanhas');
  const timeZone = useTimeZone();
  return (
    <div>
      <PageHeader title="Calendário">
        <Link to="/dashboard/campaigns/new" className={buttonVariants()}>
          Nova campanha
        </Link>
      </PageHeader>
      <Suspense fallback={<LoadingPanel label="Carregando o calendário…" />}>
        <CalendarView timeZone={timeZone} />
      </Suspense>
    </div>
  );
}

export function CampaignViewPage() {
  const { id = '' } = useParams();
  const campaign = useCampaign(id);
  usePageTitle(campaign.data?.name ?? 'Campanha');
  if (campaign.isPending) return <LoadingPanel />;
  if (campaign.isError) return <ErrorPanel error={campaign.error} onRetry={() => campaign.refetch()} />;
  return <CampaignView campaign={campaign.data} />;
}

function CampaignView({ campaign }: { campaign: Campaign }) {
  const editable = isEditable(campaign.status);
  const summary = useCampaignSummary(campaign.id, editable);
  const lists = useLists();
  const remove = useDeleteCampaign();
  const duplicate = useDuplicateCampaign();
  const unschedule = useUnscheduleCampaign();
  const navigate = useNavigate();
  const timeZone = useTimeZone();
  const listName = new Map((lists.data ?? []).map((l) => [l.id, l.name]));
  const names = (ids: string[]) => (ids.length ? ids.map((i) => listName.get(i) ?? 'Lista').join(', ') : '—');

  return (
    <div>
      <Link to="/dashboard/campaigns" className="text-sm text-brand-700 hover:underline">
        ← Campanhas
      </Link>
      <PageHeader title={campaign.name}>
        <div className="flex flex-wrap items-center gap-2">
          <CampaignStatusBadge status={campaign.status} />
          {editable ? (
            <>
              <Link
                to={`/dashboard/campaigns/${campaign.id}/edit`}
                className={buttonVariants({ variant: 'outline', size: 'sm' })}
              >
                Editar
              </Link>
              <Link
                to={`/dashboard/campaigns/${campaign.id}/template`}
                className={buttonVariants({ variant: 'outline', size: 'sm' })}
              >
                Modelo
              </Link>
            </>
          ) : null}
          <a
            href={`/campaign/${campaign.id}/template-viewer`}
            target="_blank"
            rel="noreferrer"
            className={buttonVariants({ variant: 'ghost', size: 'sm' })}
          >
            Ver no navegador
          </a>
          <Button
            size="sm"
            variant="outline"
            onClick={async () => {
              try {
                const copy = await duplicate.mutateAsync(campaign.id);
                toast({ title: 'Campanha duplicada', variant: 'success' });
                navigate(`/dashboard/campaigns/${copy.id}/edit`);
              } catch (error) {
                toast({ title: 'Não foi possível duplicar', description: errorText(error), variant: 'error' });
              }
            }}
          >
            Duplicar
          </Button>
          {campaign.status === 'sent' ? <ResendNonOpeners campaign={campaign} /> : null}
          {isDeletable(campaign.status) ? (
            <Button
              size="sm"
              variant="destructive"
              onClick={() =>
                confirmAction({
                  title: 'Excluir este rascunho?',
                  description: `A campanha "${campaign.name}" será excluída. Esta ação não pode ser desfeita.`,
                  action: async () => {
                    try {
                      await remove.mutateAsync(campaign.id);
                      toast({ title: 'Campanha excluída', variant: 'success' });
                      navigate('/dashboard/campaigns');
                    } catch (error) {
                      toast({ title: 'Não foi possível excluir', description: errorText(error), variant: 'error' });
                    }
                  },
                })
              }
            >
              Excluir
            </Button>
          ) : null}
        </div>
      </PageHeader>

      {/* The cost preview is for what is still to be sent; once sending starts the report carries the numbers. */}
      {editable ? (
        <div className="mb-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="campaign-summary">
          {summary.isPending ? (
            <Card className="col-span-full p-6">
              <Spinner label="Calculando destinatários e custo…" />
            </Card>
          ) : summary.isError ? (
            <div className="col-span-full">
              <ErrorPanel error={summary.error} onRetry={() => summary.refetch()} />
            </div>
          ) : (
            <>
              <Stat
                label="Destinatários"
                value={formatNumber(summary.data.recipients)}
                hint="sem repetidos, descadastrados e bloqueados"
              />
              <Stat
                label="Custo do envio"
                value={formatBRL(summary.data.costMillis)}
                hint={`${formatBRL(summary.data.priceMillis)} por e-mail`}
              />
              <Stat label="Saldo atual" value={formatBRL(summary.data.balanceMillis)} />
              <Stat
                label="Saldo após o envio"
                value={
                  <span className={summary.data.isBalanceSufficient ? '' : 'text-red-700'}>
                    {formatBRL(summary.data.balanceAfterMillis)}
                  </span>
                }
                hint={
                  summary.data.isBalanceSufficient ? undefined : 'Saldo insuficiente: adicione créditos em Meu saldo.'
                }
              />
            </>
          )}
        </div>
      ) : null}

      {editable ? <SenderAlignmentCheck fromEmail={campaign.fromEmail} /> : null}
      {editable ? <SendChecklistFor campaign={campaign} summary={summary.data} /> : null}
      {editable && campaign.abTest ? <AbTestSend campaign={campaign} /> : null}
      <CampaignProgressCard campaign={campaign} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardContent>
            <h2 className="mb-3 text-lg font-bold text-slate-900">Configurações</h2>
            <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
              <Item label={campaign.abTest ? 'Assunto (variante A)' : 'Assunto'}>{campaign.subject || '—'}</Item>
              {campaign.abTest ? (
                <>
                  {campaign.abTest.variants.map((variant, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the variants are positional (B, C, D)
                    <Item key={index} label={`Assunto (variante ${abVariantLetter(index + 1)})`}>
                      {variant.subject}
                      {variant.fromName ? ` — remetente "${variant.fromName}"` : ''}
                      {variant.template ? ' — conteúdo próprio' : ''}
                    </Item>
                  ))}
                  <Item label="Teste A/B">{abTestSummary(campaign.abTest)}</Item>
                </>
              ) : null}
              <Item label="Pré-cabeçalho">{campaign.preheader || '—'}</Item>
              <Item label="Remetente">
                {campaign.fromName && campaign.fromEmail
                  ? `${campaign.fromName} <${campaign.fromEmail}>`
                  : campaign.fromName || campaign.fromEmail || '—'}
              </Item>
              <Item label="Responder para">{campaign.replyTo || campaign.fromEmail || '—'}</Item>
              <Item label="Enviar para">{names(campaign.includeListIds)}</Item>
              <CampaignAudienceItems campaign={campaign} Item={Item} />
              <Item label="Exceto quem está em">{names(campaign.excludeListIds)}</Item>
              <Item label="Rastreamento">
                {[campaign.trackOpens && 'aberturas', campaign.trackClicks && 'cliques'].filter(Boolean).join(' e ') ||
                  'desligado'}
              </Item>
              <Item label="Atualizada em">{formatDateTime(campaign.updatedAt)}</Item>
            </dl>
          </CardContent>
        </Card>
        <Card className="h-fit">
          <CardContent className="space-y-4">
            <h2 className="text-lg font-bold text-slate-900">Envio</h2>
            {campaign.status === 'scheduled' && campaign.scheduledAt ? (
              <div className="rounded-lg bg-brand-50 p-3 text-sm text-brand-900" data-testid="scheduled-at">
                Agendada para <strong>{formatInZone(campaign.scheduledAt, timeZone)}</strong>
              </div>
            ) : null}
            {editable ? <ScheduleForm campaign={campaign} timeZone={timeZone} /> : null}
            {campaign.status === 'scheduled' ? (
              <Button
                variant="outline"
                className="w-full"
                disabled={unschedule.isPending}
                onClick={async () => {
                  try {
                    await unschedule.mutateAsync(campaign.id);
                    toast({
                      title: 'Agendamento cancelado',
                      description: 'A campanha voltou a ser rascunho.',
                      variant: 'success',
                    });
                  } catch (error) {
                    toast({ title: 'Não foi possível desagendar', description: errorText(error), variant: 'error' });
                  }
                }}
              >
                Desagendar
              </Button>
            ) : null}
            {editable ? <SendNowButton campaign={campaign} summary={summary.data} /> : null}
            {!editable ? (
              <dl className="space-y-2 text-sm" data-testid="send-times">
                <Item label="Iniciado em">
                  {campaign.startedAt ? formatShortInZone(campaign.startedAt, timeZone) : '—'}
                </Item>
                <Item label="Concluído em">
                  {campaign.finishedAt ? formatShortInZone(campaign.finishedAt, timeZone) : 'em andamento'}
                </Item>
              </dl>
            ) : null}
          </CardContent>
        </Card>
      </div>
      <CampaignReportSection campaign={campaign} timeZone={timeZone} />
    </div>
  );
}

const formatShortInZone = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone }).format(new Date(iso));

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}

function ScheduleForm({ campaign, timeZone }: { campaign: Campaign; timeZone: string }) {
  const schedule = useScheduleCampaign();
  const [value, setValue] = useState(() =>
    campaign.scheduledAt
      ? toZonedLocal(campaign.scheduledAt, timeZone)
      : `${toZonedLocal(new Date(Date.now() + 86_400_000), timeZone).slice(0, 11)}09:00`,
  );
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="space-y-2"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(null);
        try {
          await schedule.mutateAsync({ id: campaign.id, scheduledAt: value });
          toast({ title: 'Campanha agendada', variant: 'success' });
        } catch (failure) {
          setError(errorText(failure));
        }
      }}
    >
      <Label htmlFor="schedule-at">Data e hora do envio</Label>
      <Input id="schedule-at" type="datetime-local" value={value} onChange={(e) => setValue(e.target.value)} />
      <p className="text-xs text-slate-500">Fuso horário: {timeZoneLabel(timeZone)}.</p>
      <FieldError>{error}</FieldError>
      <Button type="submit" variant="secondary" className="w-full" disabled={schedule.isPending || !value}>
        {campaign.status === 'scheduled' ? 'Reagendar' : 'Agendar'}
      </Button>
    </form>
  );
}

/** The shared send checklist on the campaign page, before "Enviar agora" (ADR 0017). */
function SendChecklistFor({ campaign, summary }: { campaign: Campaign; summary: CampaignSummary | undefined }) {
  return <SendChecklistCard items={useSendChecklist(campaign, summary)} />;
}
