import '@/lib/i18n/app-messages';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { AuthLayout, FormMessage } from '@/components/auth-layout';
import { Button, buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { useI18n } from '@/lib/i18n';
import { switchAccount } from '@/lib/queries/auth';
import { queryClient } from '@/lib/query-client';
import { getSession, type Session } from '@/lib/session';
import { acceptInvitation } from '../api/accept-invitation';
import { signOut } from '../api/sign-out';
import { useSubmit } from '../utils/use-submit';

type SessionState = { status: 'loading' } | { status: 'anonymous' } | { status: 'signed-in'; session: Session };

/**
 * An invitation link (`/auth/invite/:accountId?token=…`): anonymous visitors sign in or register and come back here;
 * signed-in users accept, the invited account becomes the current one, and the dashboard opens on it.
 */
export function InvitePage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const { accountId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const location = useLocation();
  const back = encodeURIComponent(`${location.pathname}${location.search}`);
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const { pending, error, run } = useSubmit();

  useEffect(() => {
    const controller = new AbortController();
    getSession(controller.signal)
      .then((session) => setState({ status: 'signed-in', session }))
      .catch((caught: unknown) => {
        if (controller.signal.aborted) return;
        if (!(isApiError(caught) && caught.status === 401)) console.warn('invite page: session unavailable', caught);
        setState({ status: 'anonymous' });
      });
    return () => controller.abort();
  }, []);

  function onAccept() {
    void run(async () => {
      await acceptInvitation({ accountId, token });
      await switchAccount(accountId);
      queryClient.clear();
      navigate('/dashboard', { replace: true });
    });
  }

  function onSwitchUser() {
    void run(async () => {
      await signOut();
      queryClient.clear();
      setState({ status: 'anonymous' });
    });
  }

  if (!token) {
    return (
      <AuthLayout title={t('auth.invite.title')}>
        <FormMessage tone="error">{t('auth.invite.invalidLink')}</FormMessage>
      </AuthLayout>
    );
  }

  if (state.status === 'loading') {
    return (
      <AuthLayout title={t('auth.invite.title')}>
        <div className="flex justify-center py-6">
          <Spinner label={t('common.loading')} />
        </div>
      </AuthLayout>
    );
  }

  if (state.status === 'signed-in') {
    const already = state.session.accounts.some((a) => a.id === accountId);
    return (
      <AuthLayout
        title={t('auth.invite.title')}
        subtitle={t('auth.invite.signedInAs', { email: state.session.user.email })}
      >
        <div className="space-y-4">
          {error ? <FormMessage tone="error">{error}</FormMessage> : null}
          {already ? <FormMessage tone="success">{t('auth.invite.alreadyMember')}</FormMessage> : null}
          <Button size="lg" className="w-full" disabled={pending} onClick={onAccept}>
            {pending ? <Spinner className="text-white" /> : null}
            {t('auth.invite.accept')}
          </Button>
          <Button variant="outline" size="lg" className="w-full" disabled={pending} onClick={onSwitchUser}>
            {t('auth.invite.otherUser')}
          </Button>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('auth.invite.title')} subtitle={t('auth.invite.subtitle')}>
      <div className="space-y-3" data-account-id={accountId}>
        <Link to={`/auth/login?next=${back}`} className={buttonVariants({ size: 'lg', className: 'w-full' })}>
          {t('auth.invite.signIn')}
        </Link>
        <Link
          to={`/auth/register?next=${back}`}
          className={buttonVariants({ variant: 'outline', size: 'lg', className: 'w-full' })}
        >
          {t('auth.invite.register')}
        </Link>
      </div>
    </AuthLayout>
  );
}
