import { useEffect, useState } from 'react';
import { PageHeader } from '@/components/coming-soon-page';
import '@/lib/i18n/app-messages';
import { WebhooksSection } from '@/features/webhooks/components/webhooks-section';
import { useI18n } from '@/lib/i18n';
import { DocsSection } from '../components/docs-section';
import { KeysSection } from '../components/keys-section';
import { QuickStartSection } from '../components/quick-start-section';

/**
 * The API page (`/dashboard/api`): one section per concern, stacked. Adding a section (e.g. webhooks) is one
 * more line in the list below.
 */
export function ApiPage() {
  const { t } = useI18n();
  const [secret, setSecret] = useState<string | null>(null);
  useEffect(() => {
    document.title = `${t('page.api.title')} — Carteiro`;
  }, [t]);
  return (
    <div>
      <PageHeader title={t('page.api.title')} />
      <div className="space-y-8">
        <KeysSection onCreated={(key) => setSecret(key.secret)} />
        <QuickStartSection secret={secret} />
        <DocsSection />
        <WebhooksSection />
      </div>
    </div>
  );
}
