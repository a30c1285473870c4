import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthLayout, FormMessage } from '@/components/auth-layout';
import { Button, buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { passwordField } from '@/lib/form-fields';
import { useI18n } from '@/lib/i18n';
import { usePublicConfig } from '@/lib/public-config';
import { resetPassword } from '../api/reset-password';
import { useSubmit } from '../utils/use-submit';

export function ResetPasswordPage() {
  const { t } = useI18n();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const { minPasswordLength } = usePublicConfig();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const { pending, error, run } = useSubmit();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!token) return;
    const parsed = passwordField(minPasswordLength).safeParse(password);
    if (!parsed.success) return setFieldError(t('auth.validation.passwordMin', { min: minPasswordLength }));
    setFieldError(null);
    void run(async () => {
      await resetPassword({ newPassword: parsed.data, token });
      setDone(true);
    });
  }

  return (
    <AuthLayout title={t('auth.reset.title')} subtitle={t('auth.reset.subtitle')}>
      {!token ? (
        <div className="space-y-6">
          <FormMessage tone="error">{t('auth.reset.missingToken')}</FormMessage>
          <Link to="/auth/forgot-password" className={buttonVariants({ size: 'lg', className: 'w-full' })}>
            {t('auth.forgot.submit')}
          </Link>
        </div>
      ) : done ? (
        <div className="space-y-6">
          <FormMessage tone="success">{t('auth.reset.done')}</FormMessage>
          <Link to="/auth/login" className={buttonVariants({ size: 'lg', className: 'w-full' })}>
            {t('auth.login.submit')}
          </Link>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="space-y-5">
          {error ? <FormMessage tone="error">{error}</FormMessage> : null}
          <TextField
            label={t('auth.newPassword')}
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            error={fieldError}
            hint={t('auth.validation.passwordMin', { min: minPasswordLength })}
          />
          <Button type="submit" size="lg" className="w-full" disabled={pending}>
            {pending ? <Spinner className="text-white" /> : null}
            {t('auth.reset.submit')}
          </Button>
        </form>
      )}
      <p className="mt-8 text-center text-sm">
        <Link to="/auth/login" className="font-semibold text-brand-700 hover:text-brand-900">
          {t('auth.backToLogin')}
        </Link>
      </p>
    </AuthLayout>
  );
}
