import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import '@/lib/i18n/app-messages';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { type OpenApiDocument, OpenApiViewer } from '../components/openapi-viewer';

/**
 * The interactive documentation (`/dashboard/api/docs`): our own pt-BR reader of `/api/v1/openapi.json` (ADR
 * 0014: Scalar, the viewer before it, has no way to translate its labels). "Testar" sends requests with the key
 * the user pastes; code samples come from the document (curl, Node, Python, PHP).
 */
export function ApiDocsPage() {
  const { t } = useI18n();
  usePageTitle(t('apiKeys.docs.title'));
  const query = useQuery({
    queryKey: ['openapi-document'],
    queryFn: async (): Promise<OpenApiDocument> => {
      const response = await fetch('/api/v1/openapi.json', { credentials: 'omit' });
      if (!response.ok) throw new Error(t('apiKeys.docs.loadFailed'));
      return (await response.json()) as OpenApiDocument;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <div>
      <PageHeader title={t('apiKeys.docs.title')}>
        <Link to="/dashboard/api" className="text-sm font-medium text-brand-700 hover:underline">
          {t('apiKeys.docs.back')}
        </Link>
      </PageHeader>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">{t('apiKeys.docs.tryIt')}</p>
      {query.isPending ? (
        <LoadingPanel />
      ) : query.isError ? (
        <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <OpenApiViewer doc={query.data} />
      )}
    </div>
  );
}
