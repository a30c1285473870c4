import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthLayout, FormMessage } from '@/components/auth-layout';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { errorText } from '@/lib/error-text';
import { fieldErrors } from '@/lib/form-fields';
import { useI18n } from '@/lib/i18n';
import { usePublicConfig } from '@/lib/public-config';
import { queryClient } from '@/lib/query-client';
import { sendMagicLink } from '../api/send-magic-link';
import { signIn } from '../api/sign-in';
import { signInWithGoogle } from '../api/sign-in-social';
import { loginArrivalError, safeNextPath } from '../utils/safe-next';
import { magicLinkSchema, signInSchema } from '../utils/schemas';
import { useSubmit } from '../utils/use-submit';
import '@/lib/i18n/errors-pt-BR';

export function LoginPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const arrivalError = loginArrivalError(searchParams.get('erro'));
  const { googleSignIn } = usePublicConfig();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [magicSentTo, setMagicSentTo] = useState<string | null>(null);
  const { pending, error, run } = useSubmit();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = signInSchema.safeParse({ email, password });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    void run(async () => {
      await signIn(parsed.data);
      queryClient.removeQueries({ queryKey: ['session'] });
      navigate(next, { replace: true });
    });
  }

  function onMagicLink() {
    const parsed = magicLinkSchema.safeParse({ email });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    void run(async () => {
      await sendMagicLink({ email: parsed.data.email, callbackURL: next });
      setMagicSentTo(parsed.data.email);
    });
  }

  function onGoogle() {
    void run(async () => {
      const { url } = await signInWithGoogle(next);
      if (url) window.location.assign(url);
    });
  }

  return (
    <AuthLayout title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        {arrivalError && !error ? <FormMessage tone="error">{errorText({ code: arrivalError })}</FormMessage> : null}
        {magicSentTo ? (
          <FormMessage tone="success">{t('auth.login.magicLinkSent', { email: magicSentTo })}</FormMessage>
        ) : null}
        <TextField
          label={t('auth.email')}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={errors.email ?? null}
        />
        <div>
          <TextField
            label={t('auth.password')}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={errors.password ?? null}
          />
          <div className="mt-2 text-right">
            <Link to="/auth/forgot-password" className="text-sm font-medium text-brand-700 hover:text-brand-900">
              {t('auth.login.forgot')}
            </Link>
          </div>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={pending}>
          {pending ? <Spinner className="text-white" /> : null}
          {t('auth.login.submit')}
        </Button>
        <div className="flex items-center gap-3 text-xs uppercase text-slate-600">
          <span className="h-px flex-1 bg-slate-200" />
          {t('auth.or')}
          <span className="h-px flex-1 bg-slate-200" />
        </div>
        <Button variant="outline" size="lg" className="w-full" disabled={pending} onClick={onMagicLink}>
          {t('auth.login.magicLink')}
        </Button>
        {googleSignIn ? (
          <Button variant="outline" size="lg" className="w-full" disabled={pending} onClick={onGoogle}>
            {t('auth.login.google')}
          </Button>
        ) : null}
      </form>
      <p className="mt-8 text-center text-sm text-slate-600">
        {t('auth.login.noAccount')}{' '}
        <Link
          to={searchParams.get('next') ? `/auth/register?next=${encodeURIComponent(next)}` : '/auth/register'}
          className="font-semibold text-brand-700 hover:text-brand-900"
        >
          {t('auth.login.register')}
        </Link>
      </p>
    </AuthLayout>
  );
}
