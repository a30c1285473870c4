import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { changePassword } from '@/features/auth/api/change-password';
import { FormMessage } from '@/features/auth/components/auth-layout';
import { TextField } from '@/features/auth/components/text-field';
import { useSessionData } from '@/features/auth/utils/use-session';
import { messageOf, toastSuccess } from '@/features/dashboard/utils/notify';
import { isApiError } from '@/lib/api-client';
import { useI18n } from '@/lib/i18n';
import { usePublicConfig } from '@/lib/public-config';

/** Segurança: change the password (needs a recent sign-in; other sessions end). */
export function SecurityPanel() {
  const { t } = useI18n();
  const session = useSessionData();
  const { minPasswordLength } = usePublicConfig();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [recent, setRecent] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setRecent(false);
    if (!current) return setError(t('auth.validation.passwordRequired'));
    if (next.length < minPasswordLength) return setError(t('auth.validation.passwordMin', { min: minPasswordLength }));
    if (next !== confirm) return setError(t('settings.security.mismatch'));
    setError(null);
    setPending(true);
    try {
      await changePassword({ currentPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      toastSuccess(t('settings.security.changed'));
    } catch (caught) {
      if (isApiError(caught) && caught.code === 'requires-recent-login') setRecent(true);
      else setError(messageOf(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="max-w-md space-y-5">
      <div>
        <h3 className="font-semibold text-slate-900">{t('settings.security.title')}</h3>
        <p className="mt-1 text-sm text-slate-600">{t('settings.security.body', { email: session.user.email })}</p>
      </div>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {recent ? (
        <FormMessage tone="error">
          {t('settings.security.recentLogin')}{' '}
          <Link to="/auth/login?next=%2Fdashboard%2Fsettings%3Faba%3Dseguranca" className="font-semibold underline">
            {t('settings.security.signInAgain')}
          </Link>
        </FormMessage>
      ) : null}
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
