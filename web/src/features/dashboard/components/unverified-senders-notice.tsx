import { Link } from 'react-router';
import { useSenders, useUnverifiedSenders } from '@/lib/queries/senders';

/**
 * Dashboard notice: campaigns still to be sent whose From is not verified — existing campaigns after
 * the migration, or a domain that broke — must have it confirmed before the next send. Also flags a broken or
 * suspended domain.
 */
export function UnverifiedSendersNotice() {
  const unverified = useUnverifiedSenders();
  const senders = useSenders();
  const emails = unverified.data?.emails ?? [];
  const troubled = (senders.data?.domains ?? []).filter((d) => d.status === 'broken' || d.status === 'suspended');
  if (emails.length === 0 && troubled.length === 0) return null;
  return (
    <div
      role="status"
      data-testid="unverified-senders"
      className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      {emails.length > 0 ? (
        <p>
          <strong>Confirme seus remetentes antes do próximo envio.</strong> Agora o Carteiro só envia de endereços
          confirmados ou de domínios verificados, e {emails.length === 1 ? 'este remetente' : 'estes remetentes'} das
          suas campanhas ainda não {emails.length === 1 ? 'está' : 'estão'}: {emails.join(', ')}.
        </p>
      ) : null}
      {troubled.map((d) => (
        <p key={d.id}>
          <strong>{d.domain}</strong>{' '}
          {d.status === 'broken'
            ? 'deixou de estar verificado: o registro DKIM não foi encontrado no DNS.'
            : 'foi suspenso pela equipe do Carteiro.'}
        </p>
      ))}
      <Link to="/dashboard/settings?aba=remetentes" className="mt-1 inline-block font-semibold underline">
        Ir para Remetentes e domínios
      </Link>
    </div>
  );
}
