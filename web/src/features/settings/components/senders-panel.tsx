import {
  type SenderDnsRecord,
  type SenderDomainDto,
  type SenderDomainStatus,
  senderAddressCreateSchema,
  senderDomainCreateSchema,
} from '@carteiro/shared';
import { type FormEvent, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { formatDateTime } from '@/lib/format';
import { toastError, toastSuccess } from '@/lib/notify';
import {
  addSenderAddress,
  addSenderDomain,
  checkSenderDomain,
  deleteSenderAddress,
  deleteSenderDomain,
  refreshSenders,
  useSenders,
} from '@/lib/queries/senders';
import { canManage, useSessionData } from '@/lib/use-session';
import { confirmAction } from '@/stores/app-store';

const DOMAIN_STATUS: Record<SenderDomainStatus, { label: string; tone: 'success' | 'warning' | 'danger' | 'neutral' }> =
  {
    verified: { label: 'Verificado', tone: 'success' },
    pending: { label: 'Aguardando DNS', tone: 'warning' },
    broken: { label: 'Com problema', tone: 'danger' },
    suspended: { label: 'Suspenso', tone: 'danger' },
  };

const RECORD_STATUS: Record<
  SenderDnsRecord['status'],
  { label: string; tone: 'success' | 'warning' | 'danger' | 'neutral' }
> = {
  found: { label: 'Encontrado', tone: 'success' },
  missing: { label: 'Não encontrado', tone: 'warning' },
  wrong: { label: 'Diferente', tone: 'danger' },
  unchecked: { label: 'Não verificado', tone: 'neutral' },
};

const RECORD_TITLE: Record<SenderDnsRecord['kind'], string> = {
  dkim: 'DKIM',
  dkim_ed25519: 'DKIM Ed25519',
  spf: 'SPF',
  dmarc: 'DMARC',
  return_path: 'Domínio de retorno',
  tracking: 'Domínio de rastreamento',
};

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toastSuccess(`${what} copiado.`);
  } catch (error) {
    toastError('Não foi possível copiar. Selecione o texto e copie manualmente.', error);
  }
}

/** Configurações → Remetentes e domínios: addresses confirmed by e-mail, domains verified by DNS. */
export function SendersPanel() {
  const senders = useSenders();
  const session = useSessionData();
  const manager = canManage(session);
  if (senders.isPending) return <Spinner />;
  if (senders.isError) return <p className="text-sm text-red-700">{errorText(senders.error)}</p>;
  const { addresses, domains } = senders.data;
  return (
    <div className="space-y-10">
      <section aria-labelledby="remetentes-dominios" className="space-y-4">
        <div>
          <h2 id="remetentes-dominios" className="text-lg font-semibold text-slate-900">
            Domínios
          </h2>
          <p className="text-sm text-slate-600">
            Verifique seu domínio para enviar de qualquer endereço dele, com assinatura DKIM do próprio domínio — é o
            que Gmail e Yahoo exigem (DMARC) para não mandar suas campanhas para o spam.
          </p>
        </div>
        {manager ? <AddDomainForm /> : null}
        {domains.length === 0 ? (
          <p className="text-sm text-slate-500">Nenhum domínio ainda.</p>
        ) : (
          domains.map((domain) => <DomainCard key={domain.id} domain={domain} manager={manager} />)
        )}
      </section>

      <section aria-labelledby="remetentes-enderecos" className="space-y-4">
        <div>
          <h2 id="remetentes-enderecos" className="text-lg font-semibold text-slate-900">
            Endereços de remetente
          </h2>
          <p className="text-sm text-slate-600">
            Sem domínio próprio? Confirme um endereço: enviamos um link para ele. As mensagens saem assinadas pelo
            domínio do Carteiro.
          </p>
        </div>
        {manager ? <AddAddressForm /> : null}
        {addresses.length === 0 ? (
          <p className="text-sm text-slate-500">Nenhum endereço ainda.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {addresses.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <span className="font-medium text-slate-900">{a.email}</span>
                <span className="flex items-center gap-3">
                  {a.status === 'confirmed' ? (
                    <Badge tone="success">Confirmado</Badge>
                  ) : (
                    <Badge tone="warning">Aguardando confirmação</Badge>
                  )}
                  {manager ? (
                    <RemoveSenderButton
                      name={a.email}
                      consequence="Campanhas com este remetente não poderão ser enviadas até que ele seja confirmado de novo."
                      remove={() => deleteSenderAddress(a.id)}
                    />
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** One field, parsed by the shared schema, sent, then cleared with a toast: adding an address or a domain. */
function AddSenderForm(props: {
  label: string;
  type?: 'email';
  placeholder: string;
  submitLabel: string;
  parse: (value: string) => { ok: true; value: string } | { ok: false; message: string };
  add: (value: string) => Promise<unknown>;
  done: (value: string, answer: unknown) => [title: string, description: string];
}) {
  const id = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = props.parse(value);
    if (!parsed.ok) return setError(parsed.message);
    setError(null);
    setPending(true);
    try {
      const answer = await props.add(parsed.value);
      toastSuccess(...props.done(parsed.value, answer));
      setValue('');
      refreshSenders();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setPending(false);
    }
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" noValidate>
      <div className="min-w-64 flex-1">
        <Label htmlFor={`${id}-value`}>{props.label}</Label>
        <Input
          id={`${id}-value`}
          type={props.type}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder={props.placeholder}
          aria-invalid={error ? true : undefined}
        />
        {error ? <FieldError>{error}</FieldError> : null}
      </div>
      <Button type="submit" disabled={pending}>
        {props.submitLabel}
      </Button>
    </form>
  );
}

function AddAddressForm() {
  return (
    <AddSenderForm
      label="Novo endereço de remetente"
      type="email"
      placeholder="contato@suaempresa.com.br"
      submitLabel="Enviar link de confirmação"
      parse={(email) => {
        const parsed = senderAddressCreateSchema.safeParse({ email });
        return parsed.success
          ? { ok: true, value: parsed.data.email }
          : { ok: false, message: parsed.error.issues[0]?.message ?? 'E-mail inválido.' };
      }}
      add={addSenderAddress}
      done={(email, answer) =>
        (answer as { status?: string } | null)?.status === 'confirmed'
          ? ['Remetente confirmado.', `${email} é o seu e-mail de login, já confirmado: pode enviar com ele.`]
          : ['Link de confirmação enviado.', `Abra o e-mail que enviamos para ${email}.`]
      }
    />
  );
}

function AddDomainForm() {
  return (
    <AddSenderForm
      label="Novo domínio"
      placeholder="suaempresa.com.br"
      submitLabel="Adicionar domínio"
      parse={(domain) => {
        const parsed = senderDomainCreateSchema.safeParse({ domain });
        return parsed.success
          ? { ok: true, value: parsed.data.domain }
          : { ok: false, message: parsed.error.issues[0]?.message ?? 'Domínio inválido.' };
      }}
      add={addSenderDomain}
      done={() => ['Domínio adicionado.', 'Publique os registros abaixo no DNS e clique em "Verificar agora".']}
    />
  );
}

function DomainCard({ domain, manager }: { domain: SenderDomainDto; manager: boolean }) {
  const [checking, setChecking] = useState(false);
  const status = DOMAIN_STATUS[domain.status];
  async function check() {
    setChecking(true);
    try {
      const result = await checkSenderDomain(domain.id);
      refreshSenders();
      if (result.status === 'verified') toastSuccess(`${domain.domain} verificado.`);
      else toastError(`${domain.domain} ainda não está verificado.`, new Error('Confira os registros marcados.'));
    } catch (error) {
      toastError('Não foi possível verificar agora.', error);
    } finally {
      setChecking(false);
    }
  }
  return (
    <article
      aria-label={`Domínio ${domain.domain}`}
      className="space-y-4 rounded-xl border border-slate-200 p-4"
      data-testid={`domain-${domain.domain}`}
    >
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <h3 className="text-base font-semibold text-slate-900">{domain.domain}</h3>
          <Badge tone={status.tone}>{status.label}</Badge>
        </div>
        <div className="flex items-center gap-2">
          <Button size="sm" onClick={check} disabled={checking}>
            {checking ? 'Verificando…' : 'Verificar agora'}
          </Button>
          {manager ? (
            <RemoveSenderButton
              name={domain.domain}
              consequence="A chave DKIM deste domínio será apagada; para voltar a usá-lo, será preciso publicar uma nova."
              remove={() => deleteSenderDomain(domain.id)}
            />
          ) : null}
        </div>
      </header>
      {domain.status === 'broken' ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          O registro DKIM deste domínio sumiu do DNS. Enquanto ele não voltar, campanhas com remetente em{' '}
          {domain.domain} não podem ser enviadas.
        </p>
      ) : null}
      {domain.status === 'suspended' ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          Este domínio foi suspenso pela equipe do Carteiro. Fale com o suporte.
        </p>
      ) : null}
      <p className="text-xs text-slate-500">
        {domain.lastCheckedAt
          ? `Última verificação: ${formatDateTime(domain.lastCheckedAt)}. Verificamos de novo automaticamente de tempos em tempos.`
          : 'Ainda não verificado. Depois de publicar os registros, clique em "Verificar agora" (o DNS pode levar alguns minutos para propagar).'}
      </p>
      <ul className="space-y-3">
        {domain.records.map((record) => (
          <DnsRecordRow key={record.kind} record={record} />
        ))}
      </ul>
    </article>
  );
}

function DnsRecordRow({ record }: { record: SenderDnsRecord }) {
  const state = RECORD_STATUS[record.status];
  return (
    <li className="rounded-lg bg-slate-50 p-3 text-sm" data-testid={`record-${record.kind}`}>
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <strong className="text-slate-900">{RECORD_TITLE[record.kind]}</strong>
        <span className="rounded bg-slate-200 px-1.5 text-xs font-mono text-slate-700">{record.type}</span>
        <span className="text-xs text-slate-500">
          {record.required
            ? 'obrigatório'
            : record.kind === 'return_path' || record.kind === 'tracking'
              ? 'opcional'
              : 'recomendado'}
        </span>
        <Badge tone={state.tone}>{state.label}</Badge>
      </div>
      <dl className="grid gap-2 sm:grid-cols-[6rem_1fr_auto] sm:items-start">
        <dt className="text-xs font-medium uppercase text-slate-500">Nome</dt>
        <dd className="break-all font-mono text-xs text-slate-800">{record.name}</dd>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => copy(record.name, 'Nome')}
          aria-label={`Copiar nome ${RECORD_TITLE[record.kind]}`}
        >
          Copiar
        </Button>
        <dt className="text-xs font-medium uppercase text-slate-500">Valor</dt>
        <dd className="break-all font-mono text-xs text-slate-800">{record.value}</dd>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => copy(record.value, 'Valor')}
          aria-label={`Copiar valor ${RECORD_TITLE[record.kind]}`}
        >
          Copiar
        </Button>
      </dl>
      {record.status === 'wrong' && record.found.length > 0 ? (
        <p className="mt-2 break-all text-xs text-red-800">Encontrado no DNS: {record.found.join(' | ')}</p>
      ) : null}
      {record.warning ? (
        <p role="alert" className="mt-2 text-xs font-medium text-amber-900">
          {record.warning}
        </p>
      ) : null}
      {record.note ? <p className="mt-2 text-xs text-slate-600">{record.note}</p> : null}
    </li>
  );
}

/** "Remover" with the confirmation dialog (what removing costs), then the senders list refreshed. */
function RemoveSenderButton({
  name,
  consequence,
  remove,
}: {
  name: string;
  consequence: string;
  remove: () => Promise<unknown>;
}) {
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={() =>
        confirmAction({
          title: `Remover ${name}?`,
          description: consequence,
          action: async () => {
            await remove();
            refreshSenders();
          },
        })
      }
    >
      Remover
    </Button>
  );
}
