import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthLayout, FormMessage } from '@/components/auth-layout';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { fieldErrors } from '@/lib/form-fields';
import { useI18n } from '@/lib/i18n';
import { usePublicConfig } from '@/lib/public-config';
import { signUp } from '@/lib/queries/auth';
import { queryClient } from '@/lib/query-client';
import { safeNextPath } from '../utils/safe-next';
import { signUpSchema } from '../utils/schemas';
import { useSubmit } from '../utils/use-submit';

export function RegisterPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const { minPasswordLength } = usePublicConfig();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { pending, error, run } = useSubmit();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = signUpSchema(minPasswordLength).safeParse({ name, email, password });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    void run(async () => {
      await signUp(parsed.data);
      queryClient.removeQueries({ queryKey: ['session'] });
      navigate(next, { replace: true });
    });
  }

  const fieldError = (field: string) => errors[field] ?? null;

  return (
    <AuthLayout title={t('auth.register.title')} subtitle={t('auth.register.subtitle')}>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        <TextField
          label={t('auth.name')}
          name="name"
          autoComplete="name"
          value={name}
          onChange={setName}
          error={fieldError('name')}
          hint={t('auth.nameHint')}
        />
        <TextField
          label={t('auth.email')}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={fieldError('email')}
        />
        <TextField
          label={t('auth.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={fieldError('password')}
          hint={t('auth.validation.passwordMin', { min: minPasswordLength })}
        />
        <Button type="submit" size="lg" className="w-full" disabled={pending}>
          {pending ? <Spinner className="text-white" /> : null}
          {t('auth.register.submit')}
        </Button>
        <p className="text-center text-xs leading-relaxed text-slate-600">
          <AgreeLine />
        </p>
      </form>
      <p className="mt-8 text-center text-sm text-slate-600">
        {t('auth.register.hasAccount')}{' '}
        <Link
          to={searchParams.get('next') ? `/auth/login?next=${encodeURIComponent(next)}` : '/auth/login'}
          className="font-semibold text-brand-700 hover:text-brand-900"
        >
          {t('auth.login.submit')}
        </Link>
      </p>
    </AuthLayout>
  );
}

/** "Ao criar a conta, você concorda com os Termos de uso e a Política de privacidade." with both as links. */
function AgreeLine() {
  const { t } = useI18n();
  const [before, rest = ''] = t('auth.register.agree').split('{terms}');
  const [middle, after] = rest.split('{privacy}');
  const linkClass = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900';
  return (
    <>
      {before}
      <Link to="/terms-of-use" target="_blank" className={linkClass}>
        {t('terms.title')}
      </Link>
      {middle}
      <Link to="/privacy-policy" target="_blank" className={linkClass}>
        {t('privacy.title')}
      </Link>
      {after}
    </>
  );
}
