import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { type MessageKey, useI18n } from '@/lib/i18n';

export interface CustomFieldRow {
  k: string;
  v: string;
}

/** The custom fields of a contact as editable name/value rows (new contact form and contact drawer). */
export function CustomFieldsEditor({
  fields,
  onChange,
  keyPlaceholder,
}: {
  fields: CustomFieldRow[];
  onChange: (fields: CustomFieldRow[]) => void;
  keyPlaceholder: MessageKey;
}) {
  const { t } = useI18n();
  const edit = (index: number, change: Partial<CustomFieldRow>) =>
    onChange(fields.map((field, i) => (i === index ? { ...field, ...change } : field)));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">{t('contacts.form.customFields')}</legend>
      {fields.map((field, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place.
        <div key={index} className="flex gap-2">
          <Input
            aria-label={t('contacts.form.field')}
            placeholder={t(keyPlaceholder)}
            value={field.k}
            onChange={(e) => edit(index, { k: e.target.value })}
          />
          <Input
            aria-label={t('contacts.form.value')}
            placeholder={t('contacts.form.valuePlaceholder')}
            value={field.v}
            onChange={(e) => edit(index, { v: e.target.value })}
          />
        </div>
      ))}
      <Button size="sm" variant="ghost" onClick={() => onChange([...fields, { k: '', v: '' }])}>
        {t('contacts.form.addField')}
      </Button>
    </fieldset>
  );
}
