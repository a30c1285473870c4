import { ComingSoonPage } from '@/components/coming-soon-page';

export function ApiPage() {
  return <ComingSoonPage title="page.api.title" soon="page.api.soon" description="page.api.description" />;
}
