import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, formatDateTime, LoadingPanel } from '@/components/kit';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { BLANK_TEMPLATE_HTML } from '@/lib/blank-template';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import { useTemplates } from '@/lib/queries/templates';
import { fillSample } from '@/lib/sample-liquid';
import { usePageTitle } from '@/lib/use-page-title';
import { confirmAction, toast } from '@/stores/app-store';
import { useCreateTemplate } from '../api/create-template';
import { useDeleteTemplate } from '../api/delete-template';
import { useDuplicateTemplate } from '../api/duplicate-template';
import { useStarterTemplates } from '../api/get-starters';
import { useFooterAccount } from '../api/use-footer-account';

/** `/dashboard/templates`: the account's template library, and new templates from the pt-BR starters. */
export function TemplatesPage() {
  const { t } = useI18n();
  usePageTitle(t('templates.title'));
  const templates = useTemplates();
  const remove = useDeleteTemplate();
  const duplicate = useDuplicateTemplate();
  const [choosing, setChoosing] = useState(false);

  return (
    <div>
      <Link to="/dashboard/campaigns" className="text-sm text-brand-700 hover:underline">
        {t('templates.backToCampaigns')}
      </Link>
      <PageHeader title={t('templates.heading')}>
        <Button onClick={() => setChoosing((v) => !v)}>{t('templates.new')}</Button>
      </PageHeader>
      {choosing ? <StarterPicker /> : null}
      {templates.isPending ? (
        <LoadingPanel label={t('templates.loading')} />
      ) : templates.isError ? (
        <ErrorPanel error={templates.error} onRetry={() => templates.refetch()} />
      ) : templates.data.length === 0 ? (
        choosing ? null : (
          <EmptyState
            title={t('templates.empty.title')}
            description={t('templates.empty.body')}
            action={<Button onClick={() => setChoosing(true)}>{t('templates.empty.action')}</Button>}
          />
        )
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {templates.data.map((template) => (
            <li key={template.id}>
              <Card className="flex h-full flex-col p-5">
                <Link
                  to={`/dashboard/templates/${template.id}`}
                  className="text-lg font-semibold text-slate-900 hover:text-brand-700"
                >
                  {template.name}
                </Link>
                <p className="mt-1 line-clamp-2 text-sm text-slate-600">
                  {template.subject || t('templates.noSubject')}
                </p>
                <p className="mt-3 text-xs text-slate-500">
                  {t('templates.updatedAt', { date: formatDateTime(template.updatedAt) })}
                </p>
                <div className="mt-4 flex flex-wrap gap-2 pt-2">
                  <Link to={`/dashboard/templates/${template.id}`} className={buttonVariants({ size: 'sm' })}>
                    {t('templates.edit')}
                  </Link>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={async () => {
                      try {
                        await duplicate.mutateAsync(template.id);
                        toast({ title: t('templates.duplicated'), variant: 'success' });
                      } catch (error) {
                        toast({
                          title: t('templates.duplicateFailed'),
                          description: errorText(error),
                          variant: 'error',
                        });
                      }
                    }}
                  >
                    {t('templates.duplicate')}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-red-700"
                    onClick={() =>
                      confirmAction({
                        title: t('templates.deleteTitle'),
                        description: t('templates.deleteBody', { name: template.name }),
                        action: async () => {
                          try {
                            await remove.mutateAsync(template.id);
                            toast({ title: t('templates.deleted'), variant: 'success' });
                          } catch (error) {
                            toast({
                              title: t('templates.deleteFailed'),
                              description: errorText(error),
                              variant: 'error',
                            });
                          }
                        },
                      })
                    }
                  >
                    {t('templates.delete')}
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function StarterPicker() {
  const { t } = useI18n();
  const starters = useStarterTemplates();
  const create = useCreateTemplate();
  const account = useFooterAccount();
  const navigate = useNavigate();
  async function start(name: string, subject: string | null, html: string) {
    try {
      const template = await create.mutateAsync({ name, subject, html });
      navigate(`/dashboard/templates/${template.id}`);
    } catch (error) {
      toast({ title: t('templates.createFailed'), description: errorText(error), variant: 'error' });
    }
  }
  return (
    <section className="mb-8" aria-label={t('templates.starters.title')}>
      <h2 className="mb-3 text-lg font-bold text-slate-900">{t('templates.starters.title')}</h2>
      {starters.isPending ? (
        <LoadingPanel />
      ) : starters.isError ? (
        <ErrorPanel error={starters.error} onRetry={() => starters.refetch()} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <StarterCard
            title={t('templates.starters.blank')}
            description={t('templates.starters.blankBody')}
            disabled={create.isPending}
            onPick={() => start(t('templates.new'), null, BLANK_TEMPLATE_HTML)}
          />
          {starters.data.map((starter) => (
            <StarterCard
              key={starter.key}
              title={starter.name}
              description={starter.description}
              subject={fillSample(starter.subject)}
              html={fillSample(starter.html, undefined, account)}
              disabled={create.isPending}
              onPick={() => start(starter.name, starter.subject, starter.html)}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function StarterCard({
  title,
  description,
  subject,
  html,
  disabled,
  onPick,
}: {
  title: string;
  description: string;
  /** The subject as a recipient reads it (sample data, never raw Liquid). */
  subject?: string;
  html?: string;
  disabled: boolean;
  onPick: () => void;
}) {
  const { t } = useI18n();
  return (
    <Card className="flex flex-col overflow-hidden">
      <div className="pointer-events-none h-40 overflow-hidden border-b border-slate-100 bg-slate-50">
        {html ? (
          <iframe
            title={t('templates.starters.thumbnail', { title })}
            sandbox=""
            srcDoc={html}
            tabIndex={-1}
            className="h-[640px] w-[600px] origin-top-left scale-[0.4] border-0 bg-white"
          />
        ) : (
          <div className="flex h-full items-center justify-center text-4xl text-slate-300">+</div>
        )}
      </div>
      <div className="flex flex-1 flex-col p-4">
        <p className="font-semibold text-slate-900">{title}</p>
        <p className="mt-1 line-clamp-2 flex-1 text-sm text-slate-600">{description}</p>
        {subject ? (
          <p className="mt-2 line-clamp-2 text-xs text-slate-600">
            <span className="font-semibold">{t('templates.starters.subject')}</span> {subject}
          </p>
        ) : null}
        <Button size="sm" className="mt-3" disabled={disabled} onClick={onPick}>
          {t('templates.starters.use')}
        </Button>
      </div>
    </Card>
  );
}
