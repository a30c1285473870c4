import { useState } from 'react';
import { useI18n } from '@/lib/i18n';
import { toastError } from '@/lib/notify';
import { EMAIL_VERIFIED_PATH, sendVerificationEmail } from '@/lib/queries/auth';
import { useSessionData } from '@/lib/use-session';
import { toast } from '@/stores/app-store';

/** While the e-mail is unconfirmed: campaigns cannot be sent; offers to send the link again. */
export function VerifyEmailBanner() {
  const { t } = useI18n();
  const session = useSessionData();
  const [pending, setPending] = useState(false);
  if (session.user.emailVerified) return null;

  async function resend() {
    setPending(true);
    try {
      await sendVerificationEmail({ email: session.user.email, callbackURL: EMAIL_VERIFIED_PATH });
      toast({ title: t('dashboard.verify.sent', { email: session.user.email }) });
    } catch (error) {
      toastError(t('dashboard.verify.failed'), error);
    } finally {
      setPending(false);
    }
  }

  return (
    <div
      role="status"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <p>
        <strong className="font-semibold">{t('dashboard.verify.title')}</strong>{' '}
        {t('dashboard.verify.body', { email: session.user.email })}
      </p>
      <button
        type="button"
        disabled={pending}
        onClick={() => void resend()}
        className="font-semibold text-amber-900 underline underline-offset-4 hover:text-amber-700 disabled:opacity-60"
      >
        {t('dashboard.verify.resend')}
      </button>
    </div>
  );
}
