import { API_KEY_PREFIX, type BalanceDto, type SenderListDto } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CopyButton } from '@/components/copy-button';
import { Card } from '@/components/ui/card';
import { getLocale, translate, useI18n } from '@/lib/i18n';
import { BALANCE_QUERY_KEY, getBalance } from '@/lib/queries/balance';
import { useSenders } from '@/lib/queries/senders';
import { useSessionData } from '@/lib/use-session';

/** Where the quick start's From comes from: only a verified sender of the account may send. */
export const SENDERS_SETTINGS_PATH = '/dashboard/settings?aba=remetentes';

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * The From of the quick start: the user's own login e-mail when the account may send from it (confirmed address
 * or at a verified domain), else the first confirmed address, else an address at the first verified domain;
 * null when the account has no verified sender yet (the API would answer 403 `sender_not_verified`).
 */
export function quickStartSender(senders: SenderListDto, loginEmail: string): string | null {
  const { addresses, domains } = senders.allowed;
  const login = loginEmail.toLowerCase();
  if (addresses.some((a) => a.toLowerCase() === login) || domains.includes(domainOf(login))) return loginEmail;
  if (addresses[0]) return addresses[0];
  if (domains[0]) return `contato@${domains[0]}`;
  return null;
}

/**
 * The first transactional send as one curl line: from a verified sender to yourself. No Idempotency-Key: the
 * store replays a first answer (a 402 before a top-up, or the first send) for 24 h, which would make a second run
 * of this very line do nothing.
 */
export function quickStartCurl(origin: string, key: string, from: string, to: string): string {
  const body = JSON.stringify({
    from: { email: from },
    to: { email: to },
    subject: translate(getLocale(), 'apiKeys.quickStart.sampleSubject'),
    html: `<p>${translate(getLocale(), 'apiKeys.quickStart.sampleBody')}</p>`,
  });
  return `curl -X POST ${origin}/api/v1/messages -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '${body.replace(/'/g, "'\\''")}'`;
}

export function QuickStartSection({ secret }: { secret: string | null }) {
  const { t } = useI18n();
  const session = useSessionData();
  const senders = useSenders();
  const balance = useQuery<BalanceDto>({ queryKey: BALANCE_QUERY_KEY, queryFn: ({ signal }) => getBalance(signal) });
  const from = senders.data ? quickStartSender(senders.data, session.user.email) : null;

  let content: ReactNode;
  if (senders.isPending) {
    content = <p className="mt-3 text-sm text-slate-500">{t('common.loading')}</p>;
  } else if (senders.isError) {
    content = (
      <p role="alert" className="mt-3 text-sm text-red-700">
        {t('apiKeys.quickStart.sendersFailed')}
      </p>
    );
  } else if (!from) {
    content = (
      <div
        role="status"
        data-testid="api-quick-start-no-sender"
        className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
      >
        <p>{t('apiKeys.quickStart.noSender')}</p>
        <Link to={SENDERS_SETTINGS_PATH} className="mt-1 inline-block font-semibold underline">
          {t('apiKeys.quickStart.noSenderLink')}
        </Link>
      </div>
    );
  } else {
    const line = quickStartCurl(
      window.location.origin,
      secret ?? `${API_KEY_PREFIX}SUA_CHAVE`,
      from,
      session.user.email,
    );
    content = (
      <>
        <p className="mt-1 text-sm text-slate-600">
          {secret ? t('apiKeys.quickStart.withKey') : t('apiKeys.quickStart.body')}
        </p>
        <p className="mt-1 text-sm text-slate-600" data-testid="api-quick-start-from">
          {t('apiKeys.quickStart.from', { from, to: session.user.email })}{' '}
          <Link to={SENDERS_SETTINGS_PATH} className="font-medium text-slate-900 underline">
            {t('apiKeys.quickStart.otherSender')}
          </Link>
        </p>
        {balance.data && balance.data.emailsPaid < 1 ? (
          <div
            role="status"
            data-testid="api-quick-start-no-balance"
            className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          >
            <p>{t('apiKeys.quickStart.noBalance')}</p>
            <Link to="/dashboard/my-balance" className="mt-1 inline-block font-semibold underline">
              {t('apiKeys.quickStart.noBalanceLink')}
            </Link>
          </div>
        ) : null}
        <pre
          className="mt-3 overflow-x-auto whitespace-pre-wrap break-all rounded-lg bg-slate-950 p-4 font-mono text-xs leading-relaxed text-slate-100"
          data-testid="api-quick-start"
        >
          {line}
        </pre>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <CopyButton text={line} label={t('apiKeys.quickStart.copy')} testId="api-quick-start-copy" />
          <span className="text-xs text-slate-500">{t('apiKeys.quickStart.hint')}</span>
        </div>
      </>
    );
  }

  return (
    <section aria-labelledby="api-quick-start-title">
      <Card className="p-5">
        <h2 id="api-quick-start-title" className="text-lg font-semibold text-slate-900">
          {t('apiKeys.quickStart.title')}
        </h2>
        {content}
      </Card>
    </section>
  );
}
