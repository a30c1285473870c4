import '@/lib/i18n/app-messages';
import { Link, useSearchParams } from 'react-router';
import { AuthLayout, FormMessage } from '@/components/auth-layout';
import { SuccessMark } from '@/components/kit';
import { buttonVariants } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n';

/**
 * Where the confirmation link of the verification e-mail lands (better-auth's callbackURL): "E-mail confirmado", or
 * the reason the link failed (`?error=invalid_token|token_expired`), with the way forward.
 */
export function EmailVerifiedPage() {
  const { t } = useI18n();
  const [searchParams] = useSearchParams();
  const error = searchParams.get('error');
  if (error) {
    const expired = /expired/i.test(error);
    return (
      <AuthLayout title={t('auth.verified.failedTitle')}>
        <div className="space-y-6">
          <FormMessage tone="error">{expired ? t('auth.verified.expired') : t('auth.verified.invalid')}</FormMessage>
          <Link to="/dashboard" className={buttonVariants({ size: 'lg', className: 'w-full' })}>
            {t('auth.verified.goToDashboard')}
          </Link>
        </div>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('auth.verified.title')} subtitle={t('auth.verified.subtitle')}>
      <div className="space-y-6">
        <div className="flex justify-center">
          <SuccessMark className="bg-emerald-100 text-emerald-700" />
        </div>
        <Link to="/dashboard" className={buttonVariants({ size: 'lg', className: 'w-full' })}>
          {t('auth.verified.goToDashboard')}
        </Link>
      </div>
    </AuthLayout>
  );
}
