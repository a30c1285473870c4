import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * A dashboard page whose feature comes in a later issue: a clearly labelled "Em breve" empty state saying what
 * will be there. Never fake data.
 */
export function ComingSoonPage({
  title,
  soon,
  description,
}: {
  title: MessageKey;
  soon: MessageKey;
  description: MessageKey;
}) {
  const { t } = useI18n();
  usePageTitle(t(title));
  return (
    <div>
      <PageHeader title={t(title)} />
      <ComingSoonPanel soon={soon} description={description} />
    </div>
  );
}

export function ComingSoonPanel({ soon, description }: { soon: MessageKey; description: MessageKey }) {
  const { t } = useI18n();
  return (
    <EmptyState
      title={t('common.comingSoon', { feature: t(soon) })}
      description={t(description)}
      action={<Badge tone="brand">{t('common.comingSoon', { feature: '' }).replace(/:\s*$/, '')}</Badge>}
    />
  );
}

export function PageHeader({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      {children}
    </div>
  );
}
