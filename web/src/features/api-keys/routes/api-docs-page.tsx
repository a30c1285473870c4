import '@scalar/api-reference/style.css';
import { createApiReference } from '@scalar/api-reference';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import '@/lib/i18n/app-messages';
import { useI18n } from '@/lib/i18n';

/**
 * The interactive documentation (`/dashboard/api/docs`): Scalar, bundled into this lazy chunk (no CDN, no
 * fonts from the internet), reading our own `/api/v1/openapi.json`. "Testar" sends requests with the key the
 * user pastes under Authentication; code samples come from the document (curl, Node, Python, PHP).
 */
export function ApiDocsPage() {
  const { t } = useI18n();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    document.title = `${t('apiKeys.docs.title')} — Carteiro`;
  }, [t]);
  useEffect(() => {
    if (!host.current) return;
    const reference = createApiReference(host.current, {
      url: '/api/v1/openapi.json',
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      hideDarkModeToggle: true,
      hideModels: true,
      forceDarkModeState: 'light',
      persistAuth: false,
      agent: { disabled: true },
      defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
      hiddenClients: {
        c: true,
        clojure: true,
        csharp: true,
        dart: true,
        fsharp: true,
        go: true,
        http: true,
        java: true,
        js: true,
        kotlin: true,
        objc: true,
        ocaml: true,
        powershell: true,
        r: true,
        ruby: true,
        rust: true,
        swift: true,
        node: ['undici', 'ofetch', 'axios'],
        python: ['python3', 'httpx_sync', 'httpx_async'],
        php: ['guzzle'],
        shell: ['httpie', 'wget'],
      },
      authentication: { preferredSecurityScheme: 'bearerAuth' },
      metaData: { title: 'API do Carteiro' },
    } as Parameters<typeof createApiReference>[1]);
    return () => reference.destroy();
  }, []);
  return (
    <div>
      <PageHeader title={t('apiKeys.docs.title')}>
        <Link to="/dashboard/api" className="text-sm font-medium text-brand-700 hover:underline">
          {t('apiKeys.docs.back')}
        </Link>
      </PageHeader>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">{t('apiKeys.docs.tryIt')}</p>
      <div ref={host} className="carteiro-api-docs overflow-hidden rounded-2xl border border-slate-200 bg-white" />
    </div>
  );
}
