import { Link } from 'react-router';
import { cn } from '@/lib/cn';
import { useI18n } from '@/lib/i18n';
import { useSenderAlignment } from '@/lib/queries/senders';

function Mark({ ok, children }: { ok: boolean; children: string }) {
  return (
    <li className={cn('flex items-center gap-1.5', ok ? 'text-emerald-800' : 'text-amber-900')}>
      <span aria-hidden="true">{ok ? '✓' : '✗'}</span>
      {children}
    </li>
  );
}

/**
 * The campaign's sender check before sending: whether the From is verified and whether its mail
 * would pass DMARC — DKIM aligned (signed by the From's own domain) and SPF aligned (bounces on its domain).
 */
export function SenderAlignmentCheck({ fromEmail }: { fromEmail: string | null }) {
  const { t } = useI18n();
  const alignment = useSenderAlignment(fromEmail);
  if (!fromEmail || !alignment.data) return null;
  const a = alignment.data;
  return (
    <section
      aria-label={t('campaigns.alignment.label')}
      data-testid="sender-alignment"
      className={cn(
        'mb-6 rounded-xl border px-4 py-3 text-sm',
        a.allowed ? 'border-slate-200 bg-white' : 'border-amber-300 bg-amber-50',
      )}
    >
      <p className="font-semibold text-slate-900">
        {t('campaigns.alignment.sender', { email: a.fromEmail ?? fromEmail })}
      </p>
      {a.allowed ? null : (
        <p className="mt-1 text-amber-900">
          {t('campaigns.alignment.unverified')}{' '}
          <Link to="/dashboard/settings?aba=remetentes" className="font-semibold underline">
            {t('campaigns.settingsLink')}
          </Link>
          .
        </p>
      )}
      <ul className="mt-2 flex flex-wrap gap-x-6 gap-y-1">
        <Mark ok={a.dkimAligned}>
          {t(a.dkimAligned ? 'campaigns.alignment.dkimOk' : 'campaigns.alignment.dkimBad')}
        </Mark>
        <Mark ok={a.spfAligned}>{t(a.spfAligned ? 'campaigns.alignment.spfOk' : 'campaigns.alignment.spfBad')}</Mark>
        <Mark ok={a.dmarcPass}>{t(a.dmarcPass ? 'campaigns.alignment.dmarcOk' : 'campaigns.alignment.dmarcBad')}</Mark>
      </ul>
      {a.allowed && !a.dmarcPass ? (
        <p className="mt-1 text-xs text-slate-600">
          {t('campaigns.alignment.dmarcHint', { email: a.fromEmail ?? fromEmail })}
        </p>
      ) : null}
    </section>
  );
}
