import {
  type SenderDnsRecord,
  type SenderDomainDto,
  type SenderDomainStatus,
  senderAddressCreateSchema,
  senderDomainCreateSchema,
} from '@carteiro/shared';
import { type FormEvent, useId, useState } from 'react';
import { CopyButton } from '@/components/copy-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { firstIssueText } from '@/lib/form-fields';
import { formatDateTime } from '@/lib/format';
import { type MessageKey, useI18n } from '@/lib/i18n';
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

type Tone = 'success' | 'warning' | 'danger' | 'neutral';

const DOMAIN_STATUS: Record<SenderDomainStatus, { label: MessageKey; tone: Tone }> = {
  verified: { label: 'senders.domainStatus.verified', tone: 'success' },
  pending: { label: 'senders.domainStatus.pending', tone: 'warning' },
  broken: { label: 'senders.domainStatus.broken', tone: 'danger' },
  suspended: { label: 'senders.domainStatus.suspended', tone: 'danger' },
};

const RECORD_STATUS: Record<SenderDnsRecord['status'], { label: MessageKey; tone: Tone }> = {
  found: { label: 'senders.recordStatus.found', tone: 'success' },
  missing: { label: 'senders.recordStatus.missing', tone: 'warning' },
  wrong: { label: 'senders.recordStatus.wrong', tone: 'danger' },
  unchecked: { label: 'senders.recordStatus.unchecked', tone: 'neutral' },
};

const RECORD_TITLE: Record<SenderDnsRecord['kind'], MessageKey> = {
  dkim: 'senders.record.dkim',
  dkim_ed25519: 'senders.record.dkimEd25519',
  spf: 'senders.record.spf',
  dmarc: 'senders.record.dmarc',
  return_path: 'senders.record.returnPath',
  tracking: 'senders.record.tracking',
};

/** Configurações → Remetentes e domínios: addresses confirmed by e-mail, domains verified by DNS. */
export function SendersPanel() {
  const { t } = useI18n();
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
            {t('senders.domains.title')}
          </h2>
          <p className="text-sm text-slate-600">{t('senders.domains.intro')}</p>
        </div>
        {manager ? <AddDomainForm /> : null}
        {domains.length === 0 ? (
          <p className="text-sm text-slate-500">{t('senders.domains.empty')}</p>
        ) : (
          domains.map((domain) => <DomainCard key={domain.id} domain={domain} manager={manager} />)
        )}
      </section>

      <section aria-labelledby="remetentes-enderecos" className="space-y-4">
        <div>
          <h2 id="remetentes-enderecos" className="text-lg font-semibold text-slate-900">
            {t('senders.addresses.title')}
          </h2>
          <p className="text-sm text-slate-600">{t('senders.addresses.intro')}</p>
        </div>
        {manager ? <AddAddressForm /> : null}
        {addresses.length === 0 ? (
          <p className="text-sm text-slate-500">{t('senders.addresses.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {addresses.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <span className="font-medium text-slate-900">{a.email}</span>
                <span className="flex items-center gap-3">
                  {a.status === 'confirmed' ? (
                    <Badge tone="success">{t('senders.addresses.confirmed')}</Badge>
                  ) : (
                    <Badge tone="warning">{t('senders.addresses.awaiting')}</Badge>
                  )}
                  {manager ? (
                    <RemoveSenderButton
                      name={a.email}
                      consequence={t('senders.addresses.removeConsequence')}
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
  const { t } = useI18n();
  return (
    <AddSenderForm
      label={t('senders.addresses.new')}
      type="email"
      placeholder={t('senders.addresses.placeholder')}
      submitLabel={t('senders.addresses.submit')}
      parse={(email) => {
        const parsed = senderAddressCreateSchema.safeParse({ email });
        return parsed.success
          ? { ok: true, value: parsed.data.email }
          : { ok: false, message: firstIssueText(parsed.error) ?? t('senders.addresses.invalid') };
      }}
      add={addSenderAddress}
      done={(email, answer) =>
        (answer as { status?: string } | null)?.status === 'confirmed'
          ? [t('senders.addresses.confirmedToast'), t('senders.addresses.confirmedToastBody', { email })]
          : [t('senders.addresses.sentToast'), t('senders.addresses.sentToastBody', { email })]
      }
    />
  );
}

function AddDomainForm() {
  const { t } = useI18n();
  return (
    <AddSenderForm
      label={t('senders.domains.new')}
      placeholder={t('senders.domains.placeholder')}
      submitLabel={t('senders.domains.submit')}
      parse={(domain) => {
        const parsed = senderDomainCreateSchema.safeParse({ domain });
        return parsed.success
          ? { ok: true, value: parsed.data.domain }
          : { ok: false, message: firstIssueText(parsed.error) ?? t('senders.domains.invalid') };
      }}
      add={addSenderDomain}
      done={() => [t('senders.domains.addedToast'), t('senders.domains.addedToastBody')]}
    />
  );
}

function DomainCard({ domain, manager }: { domain: SenderDomainDto; manager: boolean }) {
  const { t } = useI18n();
  const [checking, setChecking] = useState(false);
  const status = DOMAIN_STATUS[domain.status];
  async function check() {
    setChecking(true);
    try {
      const result = await checkSenderDomain(domain.id);
      refreshSenders();
      if (result.status === 'verified') toastSuccess(t('senders.check.verified', { domain: domain.domain }));
      else toastError(t('senders.check.notYet', { domain: domain.domain }), new Error(t('senders.check.seeRecords')));
    } catch (error) {
      toastError(t('senders.check.failed'), error);
    } finally {
      setChecking(false);
    }
  }
  return (
    <article
      aria-label={t('senders.domain.label', { domain: domain.domain })}
      className="space-y-4 rounded-xl border border-slate-200 p-4"
      data-testid={`domain-${domain.domain}`}
    >
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <h3 className="text-base font-semibold text-slate-900">{domain.domain}</h3>
          <Badge tone={status.tone}>{t(status.label)}</Badge>
        </div>
        <div className="flex items-center gap-2">
          <Button size="sm" onClick={check} disabled={checking}>
            {checking ? t('senders.check.checking') : t('senders.check.now')}
          </Button>
          {manager ? (
            <RemoveSenderButton
              name={domain.domain}
              consequence={t('senders.domains.removeConsequence')}
              remove={() => deleteSenderDomain(domain.id)}
            />
          ) : null}
        </div>
      </header>
      {domain.status === 'broken' ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {t('senders.domain.broken', { domain: domain.domain })}
        </p>
      ) : null}
      {domain.status === 'suspended' ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {t('senders.domain.suspended')}
        </p>
      ) : null}
      <p className="text-xs text-slate-500">
        {domain.lastCheckedAt
          ? t('senders.domain.lastChecked', { when: formatDateTime(domain.lastCheckedAt) })
          : t('senders.domain.neverChecked')}
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
  const { t } = useI18n();
  const title = t(RECORD_TITLE[record.kind]);
  const state = RECORD_STATUS[record.status];
  return (
    <li className="rounded-lg bg-slate-50 p-3 text-sm" data-testid={`record-${record.kind}`}>
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <strong className="text-slate-900">{title}</strong>
        <span className="rounded bg-slate-200 px-1.5 text-xs font-mono text-slate-700">{record.type}</span>
        <span className="text-xs text-slate-500">
          {t(
            record.required
              ? 'senders.record.required'
              : record.kind === 'return_path' || record.kind === 'tracking'
                ? 'senders.record.optional'
                : 'senders.record.recommended',
          )}
        </span>
        <Badge tone={state.tone}>{t(state.label)}</Badge>
      </div>
      <dl className="grid gap-2 sm:grid-cols-[6rem_1fr_auto] sm:items-start">
        <dt className="text-xs font-medium uppercase text-slate-500">{t('senders.record.name')}</dt>
        <dd className="break-all font-mono text-xs text-slate-800">{record.name}</dd>
        <CopyButton
          text={record.name}
          variant="secondary"
          ariaLabel={t('senders.record.copyName', { record: title })}
        />
        <dt className="text-xs font-medium uppercase text-slate-500">{t('senders.record.value')}</dt>
        <dd className="break-all font-mono text-xs text-slate-800">{record.value}</dd>
        <CopyButton
          text={record.value}
          variant="secondary"
          ariaLabel={t('senders.record.copyValue', { record: title })}
        />
      </dl>
      {record.status === 'wrong' && record.found.length > 0 ? (
        <p className="mt-2 break-all text-xs text-red-800">
          {t('senders.record.foundInDns', { found: record.found.join(' | ') })}
        </p>
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
  const { t } = useI18n();
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={() =>
        confirmAction({
          title: t('senders.remove.confirm', { name }),
          description: consequence,
          action: async () => {
            await remove();
            refreshSenders();
          },
        })
      }
    >
      {t('senders.remove')}
    </Button>
  );
}
