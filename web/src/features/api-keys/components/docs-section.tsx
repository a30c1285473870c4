import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useI18n } from '@/lib/i18n';

/** Where the interactive documentation and the raw OpenAPI document are. */
export function DocsSection() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="api-docs-title">
      <Card className="flex flex-wrap items-center justify-between gap-4 p-5">
        <div className="max-w-2xl">
          <h2 id="api-docs-title" className="text-lg font-semibold text-slate-900">
            {t('apiKeys.docs.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t('apiKeys.docs.body')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/dashboard/api/docs" className={buttonVariants()}>
            {t('apiKeys.docs.open')}
          </Link>
          <a
            href="/api/v1/openapi.json"
            className={buttonVariants({ variant: 'outline' })}
            target="_blank"
            rel="noreferrer"
          >
            OpenAPI (JSON)
          </a>
        </div>
      </Card>
    </section>
  );
}
