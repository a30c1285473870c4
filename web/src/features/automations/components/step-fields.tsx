import { AUTOMATION_MAX_STEPS, type AutomationWaitUnit } from '@carteiro/shared';
import { Select } from '@/components/kit';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useI18n } from '@/lib/i18n';
import { useTemplates } from '@/lib/queries/templates';
import type { Draft, StepDraft } from '../utils/draft';

/** "Passos": each step's wait, template and subject; steps added up to the maximum, removed down to one. */
export function StepFields({
  steps,
  set,
  setStep,
}: {
  steps: StepDraft[];
  set: (patch: Partial<Draft>) => void;
  setStep: (index: number, patch: Partial<StepDraft>) => void;
}) {
  const { t } = useI18n();
  const templates = useTemplates();
  return (
    <div className="space-y-3">
      <p className="font-semibold text-slate-800">{t('automations.editor.steps')}</p>
      {steps.map((step, index) => (
        // Steps are edited in place by position: the index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Card key={index} data-testid="automation-step">
          <CardContent className="space-y-3 p-5">
            <div className="flex items-center justify-between">
              <p className="text-sm font-semibold text-slate-700">
                {t('automations.editor.stepTitle', { n: String(index + 1) })}
              </p>
              {steps.length > 1 ? (
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => set({ steps: steps.filter((_, i) => i !== index) })}
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
      {steps.length < AUTOMATION_MAX_STEPS ? (
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            set({
              steps: [...steps, { waitAmount: '1', waitUnit: 'days', templateId: '', subject: '' }],
            })
          }
        >
          {t('automations.editor.addStep')}
        </Button>
      ) : null}
    </div>
  );
}
