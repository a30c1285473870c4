import { Link } from 'react-router';
import { useI18n } from '@/lib/i18n';
import { useTemplates } from '@/lib/queries/templates';
import type { Campaign } from '../../api/types';
import { Choice } from './form-fields';
import type { FormValues, SetValues } from './form-values';

/** Step 4: keep the campaign's own HTML, start blank, or copy a library template; the editor is its own page. */
export function TemplateStep({ values, set, saved }: { values: FormValues; set: SetValues; saved: Campaign | null }) {
  const { t } = useI18n();
  const templates = useTemplates();
  return (
    <div className="space-y-3">
      {saved?.template ? (
        <Choice
          checked={values.templateChoice === ''}
          onChange={() => set({ templateChoice: '' })}
          title={t('campaigns.form.keepTemplate')}
          text={t('campaigns.form.keepTemplateText')}
        />
      ) : null}
      <Choice
        checked={values.templateChoice === 'blank'}
        onChange={() => set({ templateChoice: 'blank' })}
        title={t('campaigns.form.blank')}
        text={t('campaigns.form.blankText')}
      />
      {(templates.data ?? []).map((template) => (
        <Choice
          key={template.id}
          checked={values.templateChoice === template.id}
          onChange={() => set({ templateChoice: template.id })}
          title={t('campaigns.form.fromTemplate', { name: template.name })}
          text={t('campaigns.form.fromTemplateText')}
        />
      ))}
      <p className="text-sm text-slate-600">
        {t('campaigns.form.editAfterSave')}{' '}
        {saved ? (
          <Link
            to={`/dashboard/campaigns/${saved.id}/template`}
            className="font-semibold text-brand-700 hover:underline"
          >
            {t('page.campaignTemplate.title')}
          </Link>
        ) : (
          `"${t('page.campaignTemplate.title')}"`
        )}
        .{' '}
        <Link to="/dashboard/templates" className="text-brand-700 hover:underline">
          {t('campaigns.form.templateLibrary')}
        </Link>
      </p>
    </div>
  );
}
