import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { NotFound } from '@/components/not-found';
import { apiFetch, isApiError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import '@/lib/i18n/errors-pt-BR';
import { usePageTitle } from '@/lib/use-page-title';

type ViewerState =
  | { status: 'loading' }
  | { status: 'ready'; html: string }
  | { status: 'not-found' }
  | { status: 'error'; message: string };

/**
 * "Ver no navegador": the campaign's HTML as the recipient sees it. Blank until loaded (spec §2).
 * The sender's HTML only ever runs inside `<iframe sandbox="">` (no scripts, opaque origin).
 */
export function TemplateViewerPage() {
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('t');
  const { t } = useI18n();
  const [state, setState] = useState<ViewerState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    const query = token ? `?t=${encodeURIComponent(token)}` : '';
    setState({ status: 'loading' });
    apiFetch<{ html?: string } | string>(`/api/public/campaigns/${encodeURIComponent(id)}/html${query}`, {
      signal: controller.signal,
    })
      .then((body) => setState({ status: 'ready', html: typeof body === 'string' ? body : (body?.html ?? '') }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error) && error.status === 404) setState({ status: 'not-found' });
        else
          setState({
            status: 'error',
            message: errorText(error),
          });
      });
    return () => controller.abort();
  }, [id, token]);

  usePageTitle(t('templateViewer.title'));

  if (state.status === 'not-found') return <NotFound />;
  if (state.status === 'error') {
    return (
      <main className="flex min-h-dvh items-center justify-center p-6 text-center text-slate-700" role="alert">
        {state.message}
      </main>
    );
  }
  if (state.status === 'loading') return <div className="min-h-dvh bg-white" aria-busy="true" />;
  return (
    <iframe
      title={t('templateViewer.title')}
      sandbox=""
      srcDoc={state.html}
      referrerPolicy="no-referrer"
      className="block h-dvh w-full border-0 bg-white"
    />
  );
}
