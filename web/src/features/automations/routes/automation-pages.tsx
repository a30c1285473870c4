import { useParams } from 'react-router';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { useAutomation } from '../api/automations';
import { AutomationEditor } from '../components/automation-editor';
import { draftOf, NEW_DRAFT } from '../utils/draft';

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
