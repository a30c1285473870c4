import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { Input } from '@/components/ui/input';
import { FieldError } from '@/components/ui/label';
import { useI18n } from '@/lib/i18n';
import type { Template } from '@/lib/queries/templates';
import { useTemplate } from '@/lib/queries/templates';
import { usePageTitle } from '@/lib/use-page-title';
import { previewTemplate } from '../api/preview-template';
import { testSendTemplate } from '../api/test-send-template';
import { useUpdateTemplate } from '../api/update-template';
import { parseTemplateVariables } from '../components/merge-tags';
import { TemplateEditor } from '../components/template-editor';

/** `/dashboard/templates/:id`: the library template in the editor (GrapesJS loads only here and on campaign templates). */
export function TemplateEditorPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const template = useTemplate(id);
  usePageTitle(template.data?.name ?? t('templates.page.fallbackTitle'));
  if (template.isPending) return <LoadingPanel />;
  if (template.isError) return <ErrorPanel error={template.error} onRetry={() => template.refetch()} />;
  return <LoadedEditor template={template.data} />;
}

function LoadedEditor({ template }: { template: Template }) {
  const { t } = useI18n();
  const update = useUpdateTemplate(template.id);
  const [name, setName] = useState(template.name);
  const [subject, setSubject] = useState(template.subject ?? '');
  const [variablesText, setVariablesText] = useState(template.variables.join(', '));
  const declared = parseTemplateVariables(variablesText);
  return (
    <div>
      <Link to="/dashboard/templates" className="text-sm text-brand-700 hover:underline">
        {t('templates.back')}
      </Link>
      {/* The name field is the page's visible title; the heading names the page for screen readers. */}
      <h1 className="sr-only">{template.name}</h1>
      <div className="mb-4 mt-2 grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor="template-name" className="text-sm font-medium text-slate-800">
            {t('templates.page.name')}
          </label>
          <Input id="template-name" className="mt-1" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <label htmlFor="template-subject" className="text-sm font-medium text-slate-800">
            {t('templates.page.subject')}
          </label>
          <Input id="template-subject" className="mt-1" value={subject} onChange={(e) => setSubject(e.target.value)} />
        </div>
        <div className="sm:col-span-2">
          <label htmlFor="template-variables" className="text-sm font-medium text-slate-800">
            {t('templates.page.variables')}
          </label>
          <Input
            id="template-variables"
            className="mt-1 font-mono"
            placeholder={t('templates.variables.placeholder')}
            value={variablesText}
            aria-invalid={'error' in declared}
            aria-describedby="template-variables-hint template-variables-error"
            onChange={(e) => setVariablesText(e.target.value)}
          />
          <p id="template-variables-hint" className="mt-1 text-xs text-slate-500">
            {t('templates.page.variablesHint')}
          </p>
          <FieldError id="template-variables-error">{'error' in declared ? declared.error : null}</FieldError>
        </div>
      </div>
      <TemplateEditor
        initial={{ html: template.html, project: template.builderProject }}
        variables={'variables' in declared ? declared.variables : template.variables}
        onSave={async ({ html, project }) => {
          // The same schema the server checks: a bad name is shown here, under the field, and nothing is saved.
          if ('error' in declared) throw new Error(declared.error);
          await update.mutateAsync({
            name,
            subject: subject || null,
            html,
            builderProject: project,
            variables: declared.variables,
          });
        }}
        // The preview and the test send render the saved template on the server (the editor saves first).
        renderPreview={async (_content, contactId) => (await previewTemplate(template.id, contactId ?? undefined)).html}
        onTestSend={async (_content, emails, contactId) =>
          (await testSendTemplate(template.id, emails, contactId ?? undefined)).sent
        }
      />
    </div>
  );
}
