import type { AutomationTriggerType } from '@carteiro/shared';
import { Select } from '@/components/kit';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useI18n } from '@/lib/i18n';
import { useLists } from '@/lib/queries/lists';
import { useCustomFields } from '@/lib/queries/segments';
import type { Draft } from '../utils/draft';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** "Quando": what starts the automation — joining a list, a date field, or an event posted through the API. */
export function TriggerFields({ draft, set }: { draft: Draft; set: (patch: Partial<Draft>) => void }) {
  const { t } = useI18n();
  const lists = useLists();
  const customFields = useCustomFields();
  return (
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
                placeholder={t('automations.editor.fieldPlaceholder')}
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
              placeholder={t('automations.editor.eventPlaceholder')}
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
                  placeholder={t('automations.editor.eventKeyPlaceholder')}
                  onChange={(e) => set({ eventKey: e.target.value })}
                />
                <p className="mt-1 text-xs text-slate-500">{t('automations.editor.eventKeyHint')}</p>
              </div>
            ) : null}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
