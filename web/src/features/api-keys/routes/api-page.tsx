import { ComingSoonPage } from '@/components/coming-soon-page';
import { WebhooksSection } from '@/features/webhooks/components/webhooks-section';

export function ApiPage() {
  return (
    <>
      <ComingSoonPage title="page.api.title" soon="page.api.soon" description="page.api.description" />
      <WebhooksSection />
    </>
  );
}
