import {
  CONTACT_STATUS_VALUES,
  SEGMENT_DATE_OPERATORS,
  SEGMENT_ENGAGEMENT_LABELS,
  SEGMENT_ENGAGEMENT_OPERATORS,
  SEGMENT_NUMBER_OPERATORS,
  SEGMENT_OPERATOR_LABELS,
  SEGMENT_TEXT_OPERATORS,
  SEGMENT_VALUELESS_OPERATORS,
  type SegmentCondition,
  type SegmentFieldOperator,
  type SegmentGroup,
} from '@carteiro/shared';
import { Select } from '@/components/kit';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { useLists } from '@/lib/queries/lists';

type Kind = 'email' | 'name' | `custom:${string}` | 'list' | 'status' | 'subscribed_at' | 'engagement';

function kindOf(c: SegmentCondition): Kind {
  if (c.type === 'field') return typeof c.field === 'string' ? c.field : `custom:${c.field.custom}`;
  return c.type;
}

/** A fresh condition of a kind, with sensible defaults. */
function conditionOf(kind: Kind, firstListId: string): SegmentCondition {
  switch (kind) {
    case 'list':
      return { type: 'list', operator: 'in', listId: firstListId };
    case 'status':
      return { type: 'status', operator: 'is', value: 'subscribed' };
    case 'subscribed_at':
      return { type: 'subscribed_at', operator: 'in_last_days', value: '30' };
    case 'engagement':
      return { type: 'engagement', operator: 'opened_any', campaigns: 5 };
    case 'email':
    case 'name':
      return { type: 'field', field: kind, operator: 'contains', value: '' };
    default:
      return { type: 'field', field: { custom: kind.slice('custom:'.length) }, operator: 'equals', value: '' };
  }
}

export const emptyCondition = (): SegmentCondition => ({
  type: 'field',
  field: 'email',
  operator: 'contains',
  value: '',
});

const FIELD_OPERATORS_BUILTIN: readonly SegmentFieldOperator[] = SEGMENT_TEXT_OPERATORS;
const FIELD_OPERATORS_CUSTOM: readonly SegmentFieldOperator[] = [
  ...SEGMENT_TEXT_OPERATORS,
  ...SEGMENT_NUMBER_OPERATORS,
  ...SEGMENT_DATE_OPERATORS,
];

function ConditionRow({
  condition,
  customFields,
  onChange,
  onRemove,
}: {
  condition: SegmentCondition;
  customFields: string[];
  onChange: (next: SegmentCondition) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const lists = useLists();
  const firstListId = lists.data?.[0]?.id ?? '';
  const kind = kindOf(condition);
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white p-2"
      data-testid="segment-condition"
    >
      <Select
        aria-label={t('segments.editor.field')}
        className="w-auto min-w-40"
        value={kind}
        onChange={(e) => onChange(conditionOf(e.target.value as Kind, firstListId))}
      >
        <option value="email">{t('segments.kind.email')}</option>
        <option value="name">{t('segments.kind.name')}</option>
        {customFields.length > 0 ? (
          <optgroup label={t('segments.kind.customGroup')}>
            {customFields.map((f) => (
              <option key={f} value={`custom:${f}`}>
                {f}
              </option>
            ))}
          </optgroup>
        ) : null}
        <option value="list">{t('segments.kind.list')}</option>
        <option value="status">{t('segments.kind.status')}</option>
        <option value="subscribed_at">{t('segments.kind.subscribed_at')}</option>
        <option value="engagement">{t('segments.kind.engagement')}</option>
      </Select>
      <ConditionControls condition={condition} onChange={onChange} lists={lists.data ?? []} />
      <Button type="button" variant="ghost" size="sm" onClick={onRemove} className="ml-auto">
        {t('segments.editor.remove')}
      </Button>
    </div>
  );
}

function ConditionControls({
  condition: c,
  onChange,
  lists,
}: {
  condition: SegmentCondition;
  onChange: (next: SegmentCondition) => void;
  lists: Array<{ id: string; name: string }>;
}) {
  const { t } = useI18n();
  const opLabel = t('segments.editor.operator');
  const valueLabel = t('segments.editor.value');
  switch (c.type) {
    case 'field': {
      const operators = typeof c.field === 'string' ? FIELD_OPERATORS_BUILTIN : FIELD_OPERATORS_CUSTOM;
      const isDate = (SEGMENT_DATE_OPERATORS as readonly string[]).includes(c.operator);
      return (
        <>
          <Select
            aria-label={opLabel}
            className="w-auto"
            value={c.operator}
            onChange={(e) => onChange({ ...c, operator: e.target.value as SegmentFieldOperator })}
          >
            {operators.map((op) => (
              <option key={op} value={op}>
                {SEGMENT_OPERATOR_LABELS[op]}
              </option>
            ))}
          </Select>
          {SEGMENT_VALUELESS_OPERATORS.includes(c.operator) ? null : (
            <Input
              aria-label={valueLabel}
              className="w-56!"
              type={isDate ? 'date' : 'text'}
              inputMode={(SEGMENT_NUMBER_OPERATORS as readonly string[]).includes(c.operator) ? 'decimal' : undefined}
              value={c.value ?? ''}
              onChange={(e) => onChange({ ...c, value: e.target.value })}
            />
          )}
        </>
      );
    }
    case 'list':
      return (
        <>
          <Select
            aria-label={opLabel}
            className="w-auto"
            value={c.operator}
            onChange={(e) => onChange({ ...c, operator: e.target.value as 'in' | 'not_in' })}
          >
            <option value="in">{t('segments.list.in')}</option>
            <option value="not_in">{t('segments.list.not_in')}</option>
          </Select>
          <Select
            aria-label={t('segments.kind.list')}
            className="w-auto min-w-48"
            value={c.listId}
            onChange={(e) => onChange({ ...c, listId: e.target.value })}
          >
            {lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </Select>
        </>
      );
    case 'status':
      return (
        <>
          <Select
            aria-label={opLabel}
            className="w-auto"
            value={c.operator}
            onChange={(e) => onChange({ ...c, operator: e.target.value as 'is' | 'is_not' })}
          >
            <option value="is">{t('segments.status.is')}</option>
            <option value="is_not">{t('segments.status.is_not')}</option>
          </Select>
          <Select
            aria-label={valueLabel}
            className="w-auto"
            value={c.value}
            onChange={(e) => onChange({ ...c, value: e.target.value as (typeof CONTACT_STATUS_VALUES)[number] })}
          >
            {CONTACT_STATUS_VALUES.map((s) => (
              <option key={s} value={s}>
                {t(`segments.status.${s}` as MessageKey)}
              </option>
            ))}
          </Select>
        </>
      );
    case 'subscribed_at':
      return (
        <>
          <Select
            aria-label={opLabel}
            className="w-auto"
            value={c.operator}
            onChange={(e) => {
              const operator = e.target.value as 'before' | 'after' | 'in_last_days';
              const value = operator === 'in_last_days' ? '30' : new Date().toISOString().slice(0, 10);
              onChange({ ...c, operator, value });
            }}
          >
            <option value="in_last_days">{t('segments.subscribed.in_last_days')}</option>
            <option value="before">{t('segments.subscribed.before')}</option>
            <option value="after">{t('segments.subscribed.after')}</option>
          </Select>
          <Input
            aria-label={valueLabel}
            className="w-44!"
            type={c.operator === 'in_last_days' ? 'number' : 'date'}
            min={c.operator === 'in_last_days' ? 1 : undefined}
            value={c.value}
            onChange={(e) => onChange({ ...c, value: e.target.value })}
          />
        </>
      );
    case 'engagement':
      return (
        <>
          <Select
            aria-label={opLabel}
            className="w-auto"
            value={c.operator}
            onChange={(e) => onChange({ ...c, operator: e.target.value as typeof c.operator })}
          >
            {SEGMENT_ENGAGEMENT_OPERATORS.map((op) => (
              <option key={op} value={op}>
                {SEGMENT_ENGAGEMENT_LABELS[op]}
              </option>
            ))}
          </Select>
          {c.operator === 'never_opened' ? null : (
            <Input
              aria-label={t('segments.editor.campaigns')}
              className="w-24!"
              type="number"
              min={1}
              max={50}
              value={c.campaigns ?? 5}
              onChange={(e) => onChange({ ...c, campaigns: Number(e.target.value) || 1 })}
            />
          )}
        </>
      );
  }
}

/** The E/OU group editor: its conditions and (at the root) nested groups one level deep. */
export function GroupEditor({
  group,
  customFields,
  onChange,
  nested = false,
  onRemove,
}: {
  group: SegmentGroup;
  customFields: string[];
  onChange: (next: SegmentGroup) => void;
  nested?: boolean;
  onRemove?: () => void;
}) {
  const { t } = useI18n();
  const replace = (index: number, next: SegmentCondition | SegmentGroup) =>
    onChange({ ...group, conditions: group.conditions.map((c, i) => (i === index ? next : c)) });
  const remove = (index: number) => onChange({ ...group, conditions: group.conditions.filter((_, i) => i !== index) });
  return (
    <fieldset
      className={nested ? 'space-y-2 rounded-lg border border-dashed border-brand-300 bg-brand-50/40 p-3' : 'space-y-2'}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <span>
          {nested ? `${t('segments.editor.group')}: ` : ''}
          {t('segments.editor.matchPrefix')}
        </span>
        <Select
          aria-label={t('segments.editor.matchPrefix')}
          className="w-auto"
          value={group.match}
          onChange={(e) => onChange({ ...group, match: e.target.value as 'all' | 'any' })}
        >
          <option value="all">{t('segments.editor.matchAll')}</option>
          <option value="any">{t('segments.editor.matchAny')}</option>
        </Select>
        {onRemove ? (
          <Button type="button" variant="ghost" size="sm" onClick={onRemove} className="ml-auto">
            {t('segments.editor.remove')}
          </Button>
        ) : null}
      </div>
      {group.conditions.map((c, i) =>
        c.type === 'group' ? (
          <GroupEditor
            // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no identity of their own.
            key={i}
            group={c}
            customFields={customFields}
            nested
            onChange={(next) => replace(i, next)}
            onRemove={() => remove(i)}
          />
        ) : (
          <ConditionRow
            // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no identity of their own.
            key={i}
            condition={c}
            customFields={customFields}
            onChange={(next) => replace(i, next)}
            onRemove={() => remove(i)}
          />
        ),
      )}
      <div className="flex gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => onChange({ ...group, conditions: [...group.conditions, emptyCondition()] })}
        >
          {t('segments.editor.addCondition')}
        </Button>
        {nested ? null : (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() =>
              onChange({
                ...group,
                conditions: [...group.conditions, { type: 'group', match: 'any', conditions: [emptyCondition()] }],
              })
            }
          >
            {t('segments.editor.addGroup')}
          </Button>
        )}
      </div>
    </fieldset>
  );
}
