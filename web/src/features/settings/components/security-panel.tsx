import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { FormMessage } from '@/components/auth-layout';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { isApiError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { emailField } from '@/lib/form-fields';
import { useI18n } from '@/lib/i18n';
import { toastSuccess } from '@/lib/notify';
import { usePublicConfig } from '@/lib/public-config';
import { changeEmail, changePassword } from '@/lib/queries/auth';
import { useSessionData } from '@/lib/use-session';

const SIGN_IN_AGAIN = '/auth/login?next=%2Fdashboard%2Fsettings%3Faba%3Dseguranca';

/** Segurança: change the password and the sign-in e-mail (each needs a recent sign-in). */
export function SecurityPanel() {
  return (
    <div className="space-y-10">
      <ChangePasswordForm />
      <ChangeEmailForm />
    </div>
  );
}

/**
 * The submit of a form whose call needs a recent sign-in: `run(check, call)` shows the pt-BR error that `check`
 * returns (nothing is sent), else calls the server; a requires-recent-login answer shows the "sign in again"
 * message instead of the error.
 */
function useRecentLoginSubmit() {
  const [error, setError] = useState<string | null>(null);
  const [recent, setRecent] = useState(false);
  const [pending, setPending] = useState(false);

  async function run(check: () => string | null, call: () => Promise<void>): Promise<void> {
    setRecent(false);
    const problem = check();
    setError(problem);
    if (problem) return;
    setPending(true);
    try {
      await call();
    } catch (caught) {
      if (isApiError(caught) && caught.code === 'requires-recent-login') setRecent(true);
      else setError(errorText(caught));
    } finally {
      setPending(false);
    }
  }

  return { error, recent, pending, run };
}

/** The form's error, and the "sign in again" message (`recentText`) when the server asked for a recent sign-in. */
function FormFeedback({ error, recent, recentText }: { error: string | null; recent: boolean; recentText: string }) {
  const { t } = useI18n();
  return (
    <>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {recent ? (
        <FormMessage tone="error">
          {recentText}{' '}
          <Link to={SIGN_IN_AGAIN} className="font-semibold underline">
            {t('settings.security.signInAgain')}
          </Link>
        </FormMessage>
      ) : null}
    </>
  );
}

/** Change the password (needs a recent sign-in; other sessions end). */
function ChangePasswordForm() {
  const { t } = useI18n();
  const session = useSessionData();
  const { minPasswordLength } = usePublicConfig();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const { error, recent, pending, run } = useRecentLoginSubmit();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void run(
      () => {
        if (!current) return t('auth.validation.passwordRequired');
        if (next.length < minPasswordLength) return t('auth.validation.passwordMin', { min: minPasswordLength });
        if (next !== confirm) return t('settings.security.mismatch');
        return null;
      },
      async () => {
        await changePassword({ currentPassword: current, newPassword: next });
        setCurrent('');
        setNext('');
        setConfirm('');
        toastSuccess(t('settings.security.changed'));
      },
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="max-w-md space-y-5">
      <div>
        <h3 className="font-semibold text-slate-900">{t('settings.security.title')}</h3>
        <p className="mt-1 text-sm text-slate-600">{t('settings.security.body', { email: session.user.email })}</p>
      </div>
      <FormFeedback error={error} recent={recent} recentText={t('settings.security.recentLogin')} />
      <TextField
        label={t('settings.security.current')}
        name="current-password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={setCurrent}
      />
      <TextField
        label={t('auth.newPassword')}
        name="new-password"
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={setNext}
        hint={t('auth.validation.passwordMin', { min: minPasswordLength })}
      />
      <TextField
        label={t('settings.security.confirm')}
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={setConfirm}
      />
      <Button type="submit" disabled={pending}>
        {pending ? <Spinner className="text-white" /> : null}
        {t('settings.security.submit')}
      </Button>
    </form>
  );
}

/** Change the sign-in e-mail (needs a recent sign-in); better-auth e-mails the confirmation link. */
function ChangeEmailForm() {
  const { t } = useI18n();
  const session = useSessionData();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { error, recent, pending, run } = useRecentLoginSubmit();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSent(false);
    const parsed = emailField.safeParse(email);
    void run(
      () => {
        if (!parsed.success) return t('auth.validation.email');
        if (parsed.data === session.user.email.toLowerCase()) return t('settings.email.same');
        return null;
      },
      async () => {
        await changeEmail({ newEmail: parsed.data as string, callbackURL: '/dashboard/settings?aba=seguranca' });
        setEmail('');
        setSent(true);
      },
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="max-w-md space-y-5">
      <div>
        <h3 className="font-semibold text-slate-900">{t('settings.email.title')}</h3>
        <p className="mt-1 text-sm text-slate-600">{t('settings.email.body', { email: session.user.email })}</p>
      </div>
      <FormFeedback error={error} recent={recent} recentText={t('settings.email.recentLogin')} />
      {sent ? <FormMessage tone="success">{t('settings.email.sent')}</FormMessage> : null}
      <TextField
        label={t('settings.email.new')}
        name="new-email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
      />
      <Button type="submit" disabled={pending}>
        {pending ? <Spinner className="text-white" /> : null}
        {t('settings.email.submit')}
      </Button>
    </form>
  );
}
