import { errorText } from '@/lib/error-text';
import '@/lib/i18n/app-messages';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { AuthLayout, FormMessage } from '@/components/auth-layout';
import { Button, buttonVariants } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n';
import { confirmSenderAddress } from '@/lib/queries/senders';

/**
 * Where the sender address confirmation link lands (`/confirm-sender/:token`). Confirming is a button, not the
 * page load, so a mail scanner that opens links does not confirm on the owner's behalf.
 */
export function ConfirmSenderPage() {
  const { t } = useI18n();
  const { token = '' } = useParams();
  const [state, setState] = useState<
    { kind: 'idle' | 'pending' } | { kind: 'done'; email: string } | { kind: 'error'; message: string }
  >({ kind: 'idle' });
  async function confirm() {
    setState({ kind: 'pending' });
    try {
      const { email } = await confirmSenderAddress(token);
      setState({ kind: 'done', email });
    } catch (error) {
      setState({ kind: 'error', message: errorText(error) });
    }
  }
  if (state.kind === 'done') {
    return (
      <AuthLayout
        title={t('senders.confirmPage.doneTitle')}
        subtitle={t('senders.confirmPage.doneBody', { email: state.email })}
      >
        <Link to="/dashboard/settings?aba=remetentes" className={buttonVariants({ size: 'lg', className: 'w-full' })}>
          {t('senders.confirmPage.seeSenders')}
        </Link>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('senders.confirmPage.title')} subtitle={t('senders.confirmPage.body')}>
      <div className="space-y-6">
        {state.kind === 'error' ? <FormMessage tone="error">{state.message}</FormMessage> : null}
        <Button size="lg" className="w-full" onClick={confirm} disabled={state.kind === 'pending'}>
          {state.kind === 'pending' ? t('senders.confirmPage.confirming') : t('senders.confirmPage.confirm')}
        </Button>
      </div>
    </AuthLayout>
  );
}
