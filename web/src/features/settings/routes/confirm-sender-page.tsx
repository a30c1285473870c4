import { errorText } from '@/lib/error-text';
import '@/lib/i18n/app-messages';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { AuthLayout, FormMessage } from '@/components/auth-layout';
import { Button, buttonVariants } from '@/components/ui/button';
import { confirmSenderAddress } from '@/lib/queries/senders';

/**
 * Where the sender address confirmation link lands (`/confirm-sender/:token`). Confirming is a button, not the
 * page load, so a mail scanner that opens links does not confirm on the owner's behalf.
 */
export function ConfirmSenderPage() {
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
      <AuthLayout title="Remetente confirmado" subtitle={`Agora ${state.email} pode enviar campanhas pelo Carteiro.`}>
        <Link to="/dashboard/settings?aba=remetentes" className={buttonVariants({ size: 'lg', className: 'w-full' })}>
          Ver remetentes e domínios
        </Link>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title="Confirmar remetente"
      subtitle="Confirme que este endereço pode ser usado como remetente no Carteiro."
    >
      <div className="space-y-6">
        {state.kind === 'error' ? <FormMessage tone="error">{state.message}</FormMessage> : null}
        <Button size="lg" className="w-full" onClick={confirm} disabled={state.kind === 'pending'}>
          {state.kind === 'pending' ? 'Confirmando…' : 'Confirmar este remetente'}
        </Button>
      </div>
    </AuthLayout>
  );
}
