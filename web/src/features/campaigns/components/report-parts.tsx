import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useI18n } from '@/lib/i18n';

/** A titled card of the report (a chart, a table, the A/B comparison). */
export function ChartCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card data-testid={testId} className="min-w-0">
      <CardContent>
        <h3 className="mb-3 font-bold text-slate-900">{title}</h3>
        {children}
      </CardContent>
    </Card>
  );
}

/** What a report card says while it has nothing to show. */
export function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-lg bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">{children}</p>;
}

/** While Recharts' chunk loads. */
export function ChartFallback() {
  const { t } = useI18n();
  return (
    <div className="flex h-40 items-center justify-center">
      <Spinner label={t('campaigns.report.chartLoading')} />
    </div>
  );
}
