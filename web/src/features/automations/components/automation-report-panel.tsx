import { ErrorPanel, formatNumber, LoadingPanel, Stat } from '@/components/kit';
import { Card, CardContent } from '@/components/ui/card';
import { useI18n } from '@/lib/i18n';
import { useAutomationReport } from '../api/automations';

/** Beside a new automation's editor: how automations run and are charged. */
export function NewAutomationHelp() {
  const { t } = useI18n();
  return (
    <Card>
      <CardContent className="space-y-2 p-5 text-sm text-slate-600">
        <p className="font-semibold text-slate-800">{t('automations.help.title')}</p>
        <p>{t('automations.help.body')}</p>
        <p>{t('automations.help.charge')}</p>
      </CardContent>
    </Card>
  );
}

const compactTh = 'bg-slate-50 px-3 py-2 text-[11px] font-semibold uppercase tracking-wide text-slate-500';
const compactTd = 'border-t border-slate-100 px-3 py-2 align-middle text-slate-700';

/** Beside a saved automation's editor: contacts entered/in progress/done/left and each step's sends, opens, clicks. */
export function AutomationReportPanel({ id }: { id: string }) {
  const { t } = useI18n();
  const report = useAutomationReport(id);
  if (report.isPending) return <LoadingPanel />;
  if (report.isError) return <ErrorPanel error={report.error} onRetry={() => report.refetch()} />;
  const r = report.data;
  return (
    <div className="space-y-4" data-testid="automation-report">
      <p className="font-semibold text-slate-800">{t('automations.report.title')}</p>
      <div className="grid grid-cols-2 gap-3">
        <Stat label={t('automations.report.enrolled')} value={formatNumber(r.enrolled)} />
        <Stat label={t('automations.report.active')} value={formatNumber(r.active)} />
        <Stat label={t('automations.report.completed')} value={formatNumber(r.completed)} />
        <Stat label={t('automations.report.exited')} value={formatNumber(r.exited)} />
      </div>
      {/* A narrow column beside the editor: a compact table that fits it (no minimum width, no side scroll). */}
      <Card className="overflow-hidden">
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th className={compactTh}>{t('automations.report.step')}</th>
              <th className={`${compactTh} text-right`}>{t('automations.report.sent')}</th>
              <th className={`${compactTh} text-right`}>{t('automations.report.opens')}</th>
              <th className={`${compactTh} text-right`}>{t('automations.report.clicks')}</th>
            </tr>
          </thead>
          <tbody>
            {r.steps.map((s) => (
              <tr key={s.stepId}>
                <td className={compactTd}>
                  {s.position}. {s.templateName ?? '—'}
                </td>
                <td className={`${compactTd} text-right tabular-nums`}>{formatNumber(s.sent)}</td>
                <td className={`${compactTd} text-right tabular-nums`}>{formatNumber(s.opens)}</td>
                <td className={`${compactTd} text-right tabular-nums`}>{formatNumber(s.clicks)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
