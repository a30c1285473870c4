import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { Input } from '@/components/ui/input';
import { useI18n } from '@/lib/i18n';
import type { Template } from '@/lib/queries/templates';
import { useTemplate } from '@/lib/queries/templates';
import { previewTemplate } from '../api/preview-template';
import { testSendTemplate } from '../api/test-send-template';
import { useUpdateTemplate } from '../api/update-template';
import { TemplateEditor } from '../components/template-editor';

/** `/dashboard/templates/:id`: the library template in the editor (GrapesJS loads only here and on campaign templates). */
export function TemplateEditorPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const template = useTemplate(id);
  useEffect(() => {
    document.title = `${template.data?.name ?? t('templates.page.fallbackTitle')} — Carteiro`;
  }, [template.data?.name, t]);
  if (template.isPending) return <LoadingPanel />;
  if (template.isError) return <ErrorPanel error={template.error} onRetry={() => template.refetch()} />;
  return <LoadedEditor template={template.data} />;
}

function LoadedEditor({ template }: { template: Template }) {
  const { t } = useI18n();
  const update = useUpdateTemplate(template.id);
  const [name, setName] = useState(template.name);
  const [subject, setSubject] = useState(template.subject ?? '');
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
      </div>
      <TemplateEditor
        initial={{ html: template.html, project: template.builderProject }}
        onSave={async ({ html, project }) => {
          await update.mutateAsync({ name, subject: subject || null, html, builderProject: project });
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
