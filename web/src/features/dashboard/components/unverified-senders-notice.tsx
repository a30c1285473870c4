import { Link } from 'react-router';
import { pluralForm } from '@/components/kit';
import { useI18n } from '@/lib/i18n';
import { useSenders, useUnverifiedSenders } from '@/lib/queries/senders';

/**
 * Dashboard notice: campaigns still to be sent whose From is not verified — existing campaigns after
 * the migration, or a domain that broke — must have it confirmed before the next send. Also flags a broken or
 * suspended domain.
 */
export function UnverifiedSendersNotice() {
  const { t, locale } = useI18n();
  const unverified = useUnverifiedSenders();
  const senders = useSenders();
  const emails = unverified.data?.emails ?? [];
  const troubled = (senders.data?.domains ?? []).filter((d) => d.status === 'broken' || d.status === 'suspended');
  if (emails.length === 0 && troubled.length === 0) return null;
  return (
    <div
      role="status"
      data-testid="unverified-senders"
      className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      {emails.length > 0 ? (
        <p>
          <strong>{t('senders.notice.title')}</strong>{' '}
          {t(`senders.notice.body.${pluralForm(locale, emails.length)}`, { emails: emails.join(', ') })}
        </p>
      ) : null}
      {troubled.map((d) => (
        <p key={d.id}>
          <strong>{d.domain}</strong> {t(d.status === 'broken' ? 'senders.notice.broken' : 'senders.notice.suspended')}
        </p>
      ))}
      <Link to="/dashboard/settings?aba=remetentes" className="mt-1 inline-block font-semibold underline">
        {t('senders.notice.link')}
      </Link>
    </div>
  );
}
