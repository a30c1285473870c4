import { type AutomationView, automationSaveSchema } from '@carteiro/shared';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { submitParsed } from '@/lib/form-fields';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { confirmAction, toast } from '@/stores/app-store';
import { useAutomationControl, useDeleteAutomation, useSaveAutomation } from '../api/automations';
import { type Draft, inputOf, type StepDraft } from '../utils/draft';
import { AutomationReportPanel, NewAutomationHelp } from './automation-report-panel';
import { StatusBadge } from './status-badge';
import { StepFields } from './step-fields';
import { TriggerFields } from './trigger-fields';

/**
 * The editor of one automation (new or saved): its state and controls (ativar, pausar), name, trigger, sender and
 * steps, saved through the shared schema; beside it the report (saved) or how it works (new).
 */
export function AutomationEditor({ view, title, initial }: { view?: AutomationView; title: string; initial: Draft }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(initial);
  const [error, setError] = useState<string | null>(null);
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
            await submitParsed(automationSaveSchema, inputOf(draft), setError, async (input) => {
              const saved = await save.mutateAsync(input);
              toast({ title: t('automations.editor.saved'), variant: 'success' });
              if (!view) navigate(`/dashboard/automations/${saved.id}`);
            });
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
          <TriggerFields draft={draft} set={set} />
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
          <StepFields steps={draft.steps} set={set} setStep={setStep} />
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
