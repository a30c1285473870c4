import { Link } from 'react-router';
import { downloadUrl, formatNumber } from '@/components/kit';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useI18n } from '@/lib/i18n';
import { rejectedRowsUrl } from '@/lib/queries/imports';
import { useContactUploadProgress } from '@/stores/app-store';
import { dismissImport, useImportTracker } from '@/stores/import-tracker';

/** The running import's real progress bar (contact_upload_progress) and, at the end, its summary. */
export function ImportProgressPanel({ compact = false }: { compact?: boolean }) {
  const { t } = useI18n();
  const { importId, progress, error } = useImportTracker();
  const percent = useContactUploadProgress();
  if (!importId || percent === null) return null;
  const status = progress?.status ?? 'queued';
  const finished = status === 'done' || status === 'failed';
  return (
    <Card className="mb-6 p-5" aria-live="polite" data-testid="import-progress">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-slate-900">
          {status === 'done'
            ? t('imports.progress.done')
            : status === 'failed'
              ? t('imports.progress.failed')
              : progress?.fileName
                ? t('imports.progress.running', { file: progress.fileName })
                : t('imports.progress.runningContacts')}
        </p>
        <span className="text-sm tabular-nums text-slate-600">
          {progress
            ? t('imports.progress.rowsPercent', {
                processed: formatNumber(progress.processedRows),
                total: formatNumber(progress.totalRows),
                percent,
              })
            : t('imports.progress.percent', { percent })}
        </span>
      </div>
      <div
        className="mt-3 h-3 w-full overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label={t('imports.progress.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div
          className={`h-full rounded-full transition-[width] duration-500 ${status === 'failed' ? 'bg-red-500' : 'bg-brand-600'}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      {error ? <p className="mt-2 text-sm text-amber-700">{error}</p> : null}
      {status === 'failed' && progress?.error ? <p className="mt-2 text-sm text-red-700">{progress.error}</p> : null}
      {finished && progress && !compact ? (
        <div className="mt-4">
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="import-summary">
            <Summary label={t('imports.summary.inserted')} value={progress.inserted} />
            <Summary label={t('imports.summary.updated')} value={progress.updated} />
            <Summary label={t('imports.summary.unchanged')} value={progress.unchanged} />
            <Summary label={t('imports.summary.invalid')} value={progress.skippedInvalid} />
            <Summary label={t('imports.summary.duplicate')} value={progress.skippedDuplicate} />
            <Summary label={t('imports.summary.suppressed')} value={progress.skippedSuppressed} />
            <Summary label={t('imports.summary.rejected')} value={progress.rejectedCount} />
          </dl>
          <div className="mt-4 flex flex-wrap gap-2">
            {progress.rejectedCount > 0 ? (
              <Button variant="outline" onClick={() => downloadUrl(rejectedRowsUrl(progress.id))}>
                {t('imports.summary.downloadRejected')}
              </Button>
            ) : null}
            <Link
              to="/dashboard/contacts"
              className="inline-flex h-10 items-center px-2 text-sm font-semibold text-brand-700 hover:underline"
            >
              {t('imports.summary.viewContacts')}
            </Link>
            <Button variant="ghost" onClick={dismissImport}>
              {t('imports.summary.close')}
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  );
}

function Summary({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-lg font-bold tabular-nums text-slate-900">{formatNumber(value)}</dd>
    </div>
  );
}
