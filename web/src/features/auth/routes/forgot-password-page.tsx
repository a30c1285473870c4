import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { AuthLayout, FormMessage } from '@/components/auth-layout';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { fieldErrors } from '@/lib/form-fields';
import { useI18n } from '@/lib/i18n';
import { requestPasswordReset } from '../api/request-password-reset';
import { magicLinkSchema } from '../utils/schemas';
import { useSubmit } from '../utils/use-submit';

export function ForgotPasswordPage() {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { pending, error, run } = useSubmit();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = magicLinkSchema.safeParse({ email });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    void run(async () => {
      await requestPasswordReset({ email: parsed.data.email, redirectTo: '/auth/reset-password' });
      setSentTo(parsed.data.email);
    });
  }

  return (
    <AuthLayout title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')}>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        {sentTo ? <FormMessage tone="success">{t('auth.forgot.sent', { email: sentTo })}</FormMessage> : null}
        <TextField
          label={t('auth.email')}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={errors.email ?? null}
        />
        <Button type="submit" size="lg" className="w-full" disabled={pending}>
          {pending ? <Spinner className="text-white" /> : null}
          {t('auth.forgot.submit')}
        </Button>
      </form>
      <p className="mt-8 text-center text-sm">
        <Link to="/auth/login" className="font-semibold text-brand-700 hover:text-brand-900">
          {t('auth.backToLogin')}
        </Link>
      </p>
    </AuthLayout>
  );
}
