import {
  AUTOMATION_MAX_STEPS,
  type AutomationStatus,
  type AutomationTrigger,
  type AutomationTriggerType,
  type AutomationView,
  type AutomationWaitUnit,
  automationSaveSchema,
} from '@carteiro/shared';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, formatNumber, LoadingPanel, pluralForm, Select, Stat, TableShell, td, th } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { useLists } from '@/lib/queries/lists';
import { useCustomFields } from '@/lib/queries/segments';
import { useTemplates } from '@/lib/queries/templates';
import { usePageTitle } from '@/lib/use-page-title';
import { confirmAction, toast } from '@/stores/app-store';
import {
  useAutomation,
  useAutomationControl,
  useAutomationReport,
  useAutomations,
  useDeleteAutomation,
  useSaveAutomation,
} from '../api/automations';

const STATUS_TONE: Record<AutomationStatus, 'neutral' | 'success' | 'warning'> = {
  draft: 'neutral',
  active: 'success',
  paused: 'warning',
};

function StatusBadge({ status }: { status: AutomationStatus }) {
  const { t } = useI18n();
  return (
    <Badge tone={STATUS_TONE[status]} data-testid="automation-status">
      {t(`automations.status.${status}` as MessageKey)}
    </Badge>
  );
}

function useTriggerText() {
  const { t } = useI18n();
  const lists = useLists();
  return (trigger: AutomationTrigger) => {
    switch (trigger.type) {
      case 'list_joined':
        return t('automations.trigger.listJoinedText', {
          list: lists.data?.find((l) => l.id === trigger.listId)?.name ?? '…',
        });
      case 'date_field':
        return t('automations.trigger.dateFieldText', { field: trigger.field, hour: String(trigger.hour) });
      case 'api_event':
        return trigger.eventKey
          ? t('automations.trigger.apiEventPerKeyText', { event: trigger.eventName, key: trigger.eventKey })
          : t('automations.trigger.apiEventText', { event: trigger.eventName });
    }
  };
}

export function AutomationsPage() {
  const { t, locale } = useI18n();
  usePageTitle(t('automations.title'));
  const automations = useAutomations();
  const triggerText = useTriggerText();
  const newLink = (
    <Link to="/dashboard/automations/new" className={buttonVariants()}>
      {t('automations.new')}
    </Link>
  );
  return (
    <div>
      <PageHeader title={t('automations.title')}>{newLink}</PageHeader>
      <p className="-mt-4 mb-6 text-slate-600">{t('automations.subtitle')}</p>
      {automations.isPending ? (
        <LoadingPanel label={t('automations.loading')} />
      ) : automations.isError ? (
        <ErrorPanel error={automations.error} onRetry={() => automations.refetch()} />
      ) : automations.data.length === 0 ? (
        <EmptyState title={t('automations.empty.title')} description={t('automations.empty.body')} action={newLink} />
      ) : (
        <TableShell>
          <thead>
            <tr>
              <th className={th}>{t('automations.table.name')}</th>
              <th className={th}>{t('automations.table.trigger')}</th>
              <th className={th}>{t('automations.table.status')}</th>
              <th className={th}>{t('automations.table.contacts')}</th>
            </tr>
          </thead>
          <tbody>
            {automations.data.map((a) => (
              <tr key={a.id} className="hover:bg-slate-50">
                <td className={td}>
                  <Link to={`/dashboard/automations/${a.id}`} className="font-semibold text-brand-800 hover:underline">
                    {a.name}
                  </Link>
                  <p className="text-xs text-slate-500">
                    {t(`automations.stepsCount.${pluralForm(locale, a.steps.length)}`, {
                      count: formatNumber(a.steps.length),
                    })}
                  </p>
                </td>
                <td className={td}>{triggerText(a.trigger)}</td>
                <td className={td}>
                  <StatusBadge status={a.status} />
                </td>
                <td className={td}>
                  {t(`automations.activeCount.${pluralForm(locale, a.active)}`, { count: formatNumber(a.active) })}
                </td>
              </tr>
            ))}
          </tbody>
        </TableShell>
      )}
    </div>
  );
}

interface StepDraft {
  waitAmount: string;
  waitUnit: AutomationWaitUnit;
  templateId: string;
  subject: string;
}

interface Draft {
  name: string;
  triggerType: AutomationTriggerType;
  listId: string;
  field: string;
  hour: string;
  eventName: string;
  /** Empty: a contact enters once; a data key (`pedido`): once per distinct value of it. */
  eventKey: string;
  reentry: 'once' | 'per_event';
  fromEmail: string;
  fromName: string;
  steps: StepDraft[];
}

const NEW_DRAFT: Draft = {
  name: '',
  triggerType: 'list_joined',
  listId: '',
  field: '',
  hour: '9',
  eventName: '',
  eventKey: '',
  reentry: 'once',
  fromEmail: '',
  fromName: '',
  steps: [{ waitAmount: '0', waitUnit: 'hours', templateId: '', subject: '' }],
};

function draftOf(view: AutomationView): Draft {
  const trigger = view.trigger;
  return {
    name: view.name,
    triggerType: trigger.type,
    listId: trigger.type === 'list_joined' ? trigger.listId : '',
    field: trigger.type === 'date_field' ? trigger.field : '',
    hour: trigger.type === 'date_field' ? String(trigger.hour) : '9',
    eventName: trigger.type === 'api_event' ? trigger.eventName : '',
    eventKey: trigger.type === 'api_event' ? (trigger.eventKey ?? '') : '',
    reentry: trigger.type === 'api_event' && trigger.eventKey ? 'per_event' : 'once',
    fromEmail: view.fromEmail,
    fromName: view.fromName ?? '',
    steps: view.steps.map((s) => ({
      waitAmount: String(s.waitAmount),
      waitUnit: s.waitUnit,
      templateId: s.templateId,
      subject: s.subject ?? '',
    })),
  };
}

function inputOf(draft: Draft) {
  const trigger =
    draft.triggerType === 'list_joined'
      ? { type: draft.triggerType, listId: draft.listId }
      : draft.triggerType === 'date_field'
        ? { type: draft.triggerType, field: draft.field, hour: draft.hour }
        : {
            type: draft.triggerType,
            eventName: draft.eventName,
            ...(draft.reentry === 'per_event' ? { eventKey: draft.eventKey } : {}),
          };
  return {
    name: draft.name,
    trigger,
    fromEmail: draft.fromEmail,
    fromName: draft.fromName,
    steps: draft.steps.map((s) => ({ ...s, waitAmount: s.waitAmount === '' ? Number.NaN : s.waitAmount })),
  };
}

export function NewAutomationPage() {
  const { t } = useI18n();
  usePageTitle(t('automations.editor.newTitle'));
  return <AutomationEditor title={t('automations.editor.newTitle')} initial={NEW_DRAFT} />;
}

export function AutomationPage() {
  const { t } = useI18n();
  const { id } = useParams();
  const automation = useAutomation(id);
  usePageTitle(automation.data?.name ?? t('automations.title'));
  if (automation.isPending) return <LoadingPanel label={t('automations.loading')} />;
  if (automation.isError) return <ErrorPanel error={automation.error} onRetry={() => automation.refetch()} />;
  return (
    <AutomationEditor
      key={automation.data.id}
      view={automation.data}
      title={automation.data.name}
      initial={draftOf(automation.data)}
    />
  );
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);

function AutomationEditor({ view, title, initial }: { view?: AutomationView; title: string; initial: Draft }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(initial);
  const [error, setError] = useState<string | null>(null);
  const lists = useLists();
  const templates = useTemplates();
  const customFields = useCustomFields();
  const save = useSaveAutomation(view?.id);
  const control = useAutomationControl();
  const remove = useDeleteAutomation();
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setStep = (index: number, patch: Partial<StepDraft>) =>
    setDraft((d) => ({ ...d, steps: d.steps.map((s, i) => (i === index ? { ...s, ...patch } : s)) }));

  async function runControl(action: 'activate' | 'pause') {
    if (!view) return;
    try {
      await control.mutateAsync({ id: view.id, action });
      const done: MessageKey =
        action === 'pause'
          ? 'automations.control.paused'
          : view.status === 'paused'
            ? 'automations.control.resumed'
            : 'automations.control.activated';
      toast({ title: t(done), variant: 'success' });
    } catch (e) {
      toast({ title: t('automations.control.failed'), description: errorText(e), variant: 'error' });
    }
  }

  return (
    <div>
      <PageHeader title={title}>
        <Link to="/dashboard/automations" className={buttonVariants({ variant: 'outline' })}>
          {t('automations.editor.back')}
        </Link>
      </PageHeader>
      {view ? (
        <Card className="mb-6">
          <CardContent className="flex flex-wrap items-center gap-3 p-5">
            <StatusBadge status={view.status} />
            <p className="flex-1 text-sm text-slate-600">{t(`automations.statusHint.${view.status}` as MessageKey)}</p>
            {view.status === 'active' ? (
              <Button variant="outline" disabled={control.isPending} onClick={() => runControl('pause')}>
                {t('automations.control.pause')}
              </Button>
            ) : (
              <Button disabled={control.isPending} onClick={() => runControl('activate')}>
                {view.status === 'paused' ? t('automations.control.resume') : t('automations.control.activate')}
              </Button>
            )}
            {view.pausedReason ? (
              <p className="w-full rounded-md bg-amber-50 p-3 text-sm text-amber-900" role="alert">
                {view.pausedReason}
              </p>
            ) : null}
          </CardContent>
        </Card>
      ) : null}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <form
          noValidate
          className="space-y-5"
          onSubmit={async (event) => {
            event.preventDefault();
            const parsed = automationSaveSchema.safeParse(inputOf(draft));
            if (!parsed.success) {
              setError(parsed.error.issues[0]?.message ?? null);
              return;
            }
            setError(null);
            try {
              const saved = await save.mutateAsync(parsed.data);
              toast({ title: t('automations.editor.saved'), variant: 'success' });
              if (!view) navigate(`/dashboard/automations/${saved.id}`);
            } catch (e) {
              setError(errorText(e));
            }
          }}
        >
          <div>
            <Label htmlFor="automation-name">{t('automations.editor.name')}</Label>
            <Input
              id="automation-name"
              className="mt-1.5"
              value={draft.name}
              placeholder={t('automations.editor.namePlaceholder')}
              onChange={(e) => set({ name: e.target.value })}
            />
          </div>
          <Card>
            <CardContent className="space-y-4 p-5">
              <p className="font-semibold text-slate-800">{t('automations.editor.when')}</p>
              <div>
                <Label htmlFor="automation-trigger">{t('automations.editor.trigger')}</Label>
                <Select
                  id="automation-trigger"
                  className="mt-1.5"
                  value={draft.triggerType}
                  onChange={(e) => set({ triggerType: e.target.value as AutomationTriggerType })}
                >
                  <option value="list_joined">{t('automations.trigger.list_joined')}</option>
                  <option value="date_field">{t('automations.trigger.date_field')}</option>
                  <option value="api_event">{t('automations.trigger.api_event')}</option>
                </Select>
              </div>
              {draft.triggerType === 'list_joined' ? (
                <div>
                  <Label htmlFor="automation-list">{t('automations.editor.list')}</Label>
                  <Select
                    id="automation-list"
                    className="mt-1.5"
                    value={draft.listId}
                    onChange={(e) => set({ listId: e.target.value })}
                  >
                    <option value="">{t('automations.editor.chooseList')}</option>
                    {(lists.data ?? []).map((l) => (
                      <option key={l.id} value={l.id}>
                        {l.name}
                      </option>
                    ))}
                  </Select>
                  <p className="mt-1 text-xs text-slate-500">{t('automations.editor.listHint')}</p>
                </div>
              ) : draft.triggerType === 'date_field' ? (
                <div className="grid gap-4 sm:grid-cols-2">
                  <div>
                    <Label htmlFor="automation-field">{t('automations.editor.field')}</Label>
                    <Input
                      id="automation-field"
                      className="mt-1.5"
                      list="automation-fields"
                      value={draft.field}
                      placeholder="aniversario"
                      onChange={(e) => set({ field: e.target.value })}
                    />
                    <datalist id="automation-fields">
                      {(customFields.data ?? []).map((f) => (
                        <option key={f} value={f} />
                      ))}
                    </datalist>
                  </div>
                  <div>
                    <Label htmlFor="automation-hour">{t('automations.editor.hour')}</Label>
                    <Select
                      id="automation-hour"
                      className="mt-1.5"
                      value={draft.hour}
                      onChange={(e) => set({ hour: e.target.value })}
                    >
                      {HOURS.map((h) => (
                        <option key={h} value={String(h)}>
                          {`${String(h).padStart(2, '0')}:00`}
                        </option>
                      ))}
                    </Select>
                  </div>
                  <p className="text-xs text-slate-500 sm:col-span-2">{t('automations.editor.dateHint')}</p>
                </div>
              ) : (
                <div>
                  <Label htmlFor="automation-event">{t('automations.editor.event')}</Label>
                  <Input
                    id="automation-event"
                    className="mt-1.5 font-mono"
                    value={draft.eventName}
                    placeholder="pedido_pago"
                    onChange={(e) => set({ eventName: e.target.value })}
                  />
                  <p className="mt-1 text-xs text-slate-500">{t('automations.editor.eventHint')}</p>
                  <Label htmlFor="automation-reentry" className="mt-4 block">
                    {t('automations.editor.reentry')}
                  </Label>
                  <Select
                    id="automation-reentry"
                    className="mt-1.5"
                    value={draft.reentry}
                    onChange={(e) => set({ reentry: e.target.value as Draft['reentry'] })}
                  >
                    <option value="once">{t('automations.editor.reentryOnce')}</option>
                    <option value="per_event">{t('automations.editor.reentryPerEvent')}</option>
                  </Select>
                  {draft.reentry === 'per_event' ? (
                    <div className="mt-3">
                      <Label htmlFor="automation-event-key">{t('automations.editor.eventKey')}</Label>
                      <Input
                        id="automation-event-key"
                        className="mt-1.5 font-mono"
                        value={draft.eventKey}
                        placeholder="pedido"
                        onChange={(e) => set({ eventKey: e.target.value })}
                      />
                      <p className="mt-1 text-xs text-slate-500">{t('automations.editor.eventKeyHint')}</p>
                    </div>
                  ) : null}
                </div>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardContent className="grid gap-4 p-5 sm:grid-cols-2">
              <div>
                <Label htmlFor="automation-from-email">{t('automations.editor.fromEmail')}</Label>
                <Input
                  id="automation-from-email"
                  type="email"
                  className="mt-1.5"
                  value={draft.fromEmail}
                  onChange={(e) => set({ fromEmail: e.target.value })}
                />
              </div>
              <div>
                <Label htmlFor="automation-from-name">{t('automations.editor.fromName')}</Label>
                <Input
                  id="automation-from-name"
                  className="mt-1.5"
                  value={draft.fromName}
                  onChange={(e) => set({ fromName: e.target.value })}
                />
              </div>
            </CardContent>
          </Card>
          <div className="space-y-3">
            <p className="font-semibold text-slate-800">{t('automations.editor.steps')}</p>
            {draft.steps.map((step, index) => (
              // Steps are edited in place by position: the index is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <Card key={index} data-testid="automation-step">
                <CardContent className="space-y-3 p-5">
                  <div className="flex items-center justify-between">
                    <p className="text-sm font-semibold text-slate-700">
                      {t('automations.editor.stepTitle', { n: String(index + 1) })}
                    </p>
                    {draft.steps.length > 1 ? (
                      <Button
                        type="button"
                        variant="outline"
                        size="sm"
                        onClick={() => set({ steps: draft.steps.filter((_, i) => i !== index) })}
                      >
                        {t('automations.editor.removeStep')}
                      </Button>
                    ) : null}
                  </div>
                  <div className="flex flex-wrap items-end gap-3">
                    <div>
                      <Label htmlFor={`step-${index}-wait`}>{t('automations.editor.wait')}</Label>
                      <Input
                        id={`step-${index}-wait`}
                        type="number"
                        min={0}
                        max={365}
                        className="mt-1.5 w-24"
                        value={step.waitAmount}
                        onChange={(e) => setStep(index, { waitAmount: e.target.value })}
                      />
                    </div>
                    <div>
                      <Label htmlFor={`step-${index}-unit`} className="sr-only">
                        {t('automations.editor.unit')}
                      </Label>
                      <Select
                        id={`step-${index}-unit`}
                        value={step.waitUnit}
                        onChange={(e) => setStep(index, { waitUnit: e.target.value as AutomationWaitUnit })}
                      >
                        <option value="hours">{t('automations.editor.hours')}</option>
                        <option value="days">{t('automations.editor.days')}</option>
                      </Select>
                    </div>
                    <span className="pb-2 text-slate-500">→</span>
                    <div className="min-w-48 flex-1">
                      <Label htmlFor={`step-${index}-template`}>{t('automations.editor.template')}</Label>
                      <Select
                        id={`step-${index}-template`}
                        className="mt-1.5"
                        value={step.templateId}
                        onChange={(e) => setStep(index, { templateId: e.target.value })}
                      >
                        <option value="">{t('automations.editor.chooseTemplate')}</option>
                        {(templates.data ?? []).map((tpl) => (
                          <option key={tpl.id} value={tpl.id}>
                            {tpl.name}
                          </option>
                        ))}
                      </Select>
                    </div>
                  </div>
                  <div>
                    <Label htmlFor={`step-${index}-subject`}>{t('automations.editor.subject')}</Label>
                    <Input
                      id={`step-${index}-subject`}
                      className="mt-1.5"
                      value={step.subject}
                      placeholder={t('automations.editor.subjectPlaceholder')}
                      onChange={(e) => setStep(index, { subject: e.target.value })}
                    />
                  </div>
                </CardContent>
              </Card>
            ))}
            {draft.steps.length < AUTOMATION_MAX_STEPS ? (
              <Button
                type="button"
                variant="outline"
                onClick={() =>
                  set({
                    steps: [...draft.steps, { waitAmount: '1', waitUnit: 'days', templateId: '', subject: '' }],
                  })
                }
              >
                {t('automations.editor.addStep')}
              </Button>
            ) : null}
          </div>
          <FieldError>{error}</FieldError>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending}>
              {t('automations.editor.save')}
            </Button>
            {view ? (
              <Button
                type="button"
                variant="destructive"
                onClick={() =>
                  confirmAction({
                    title: t('automations.editor.delete'),
                    description: t('automations.editor.deleteConfirm', { name: view.name }),
                    action: async () => {
                      try {
                        await remove.mutateAsync(view.id);
                        toast({ title: t('automations.editor.deleted'), variant: 'success' });
                        navigate('/dashboard/automations');
                      } catch (e) {
                        toast({ title: t('automations.editor.delete'), description: errorText(e), variant: 'error' });
                      }
                    },
                  })
                }
              >
                {t('automations.editor.delete')}
              </Button>
            ) : null}
          </div>
        </form>
        <aside>{view ? <AutomationReportPanel id={view.id} /> : <NewAutomationHelp />}</aside>
      </div>
    </div>
  );
}

function NewAutomationHelp() {
  const { t } = useI18n();
  return (
    <Card>
      <CardContent className="space-y-2 p-5 text-sm text-slate-600">
        <p className="font-semibold text-slate-800">{t('automations.help.title')}</p>
        <p>{t('automations.help.body')}</p>
        <p>{t('automations.help.charge')}</p>
      </CardContent>
    </Card>
  );
}

const compactTh = 'bg-slate-50 px-3 py-2 text-[11px] font-semibold uppercase tracking-wide text-slate-500';
const compactTd = 'border-t border-slate-100 px-3 py-2 align-middle text-slate-700';

function AutomationReportPanel({ id }: { id: string }) {
  const { t } = useI18n();
  const report = useAutomationReport(id);
  if (report.isPending) return <LoadingPanel />;
  if (report.isError) return <ErrorPanel error={report.error} onRetry={() => report.refetch()} />;
  const r = report.data;
  return (
    <div className="space-y-4" data-testid="automation-report">
      <p className="font-semibold text-slate-800">{t('automations.report.title')}</p>
      <div className="grid grid-cols-2 gap-3">
        <Stat label={t('automations.report.enrolled')} value={formatNumber(r.enrolled)} />
        <Stat label={t('automations.report.active')} value={formatNumber(r.active)} />
        <Stat label={t('automations.report.completed')} value={formatNumber(r.completed)} />
        <Stat label={t('automations.report.exited')} value={formatNumber(r.exited)} />
      </div>
      {/* A narrow column beside the editor: a compact table that fits it (no minimum width, no side scroll). */}
      <Card className="overflow-hidden">
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th className={compactTh}>{t('automations.report.step')}</th>
              <th className={`${compactTh} text-right`}>{t('automations.report.sent')}</th>
              <th className={`${compactTh} text-right`}>{t('automations.report.opens')}</th>
              <th className={`${compactTh} text-right`}>{t('automations.report.clicks')}</th>
            </tr>
          </thead>
          <tbody>
            {r.steps.map((s) => (
              <tr key={s.stepId}>
                <td className={compactTd}>
                  {s.position}. {s.templateName ?? '—'}
                </td>
                <td className={`${compactTd} text-right tabular-nums`}>{formatNumber(s.sent)}</td>
                <td className={`${compactTd} text-right tabular-nums`}>{formatNumber(s.opens)}</td>
                <td className={`${compactTd} text-right tabular-nums`}>{formatNumber(s.clicks)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
