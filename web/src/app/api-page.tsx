import { useState } from 'react';
import { PageHeader } from '@/components/coming-soon-page';
import '@/lib/i18n/app-messages';
import { DocsSection } from '@/features/api-keys/components/docs-section';
import { KeysSection } from '@/features/api-keys/components/keys-section';
import { QuickStartSection } from '@/features/api-keys/components/quick-start-section';
import { WebhooksSection } from '@/features/webhooks/components/webhooks-section';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * The API page (`/dashboard/api`): one section per concern, stacked — the api-keys feature's and the webhooks
 * feature's, composed here so neither imports the other. Adding a section is one more line in the list below.
 */
export function ApiPage() {
  const { t } = useI18n();
  const [secret, setSecret] = useState<string | null>(null);
  usePageTitle(t('page.api.title'));
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
