import { Link } from 'react-router';
import { Input } from '@/components/ui/input';
import { useI18n } from '@/lib/i18n';
import { useSenders } from '@/lib/queries/senders';

const selectClass =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200';

const SETTINGS_LINK = '/dashboard/settings?aba=remetentes';

/**
 * The campaign's From: offers only the account's confirmed addresses and any address at its verified
 * domains. A From saved before (unverified) stays visible, marked, so it can be replaced. Without any verified
 * sender yet it stays a free field with the way to verify one (the server refuses to send until then).
 */
export function SenderPicker({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useI18n();
  const senders = useSenders();
  const allowed = senders.data?.allowed;
  if (senders.isPending) {
    return (
      <select id={id} className={selectClass} disabled value="">
        <option value="">{t('campaigns.sender.loading')}</option>
      </select>
    );
  }
  if (!allowed || (allowed.addresses.length === 0 && allowed.domains.length === 0)) {
    return (
      <div className="space-y-2">
        <Input
          id={id}
          type="email"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={t('campaigns.sender.placeholder')}
        />
        {allowed ? (
          <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900">
            {t('campaigns.sender.noneVerified')}{' '}
            <Link to={SETTINGS_LINK} className="font-semibold underline">
              {t('campaigns.settingsLink')}
            </Link>
            .
          </p>
        ) : null}
      </div>
    );
  }
  const email = value.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  const domain = at >= 0 ? email.slice(at + 1) : '';
  const isAddress = allowed.addresses.includes(email);
  const domainMode = !isAddress && allowed.domains.includes(domain);
  const selected = isAddress ? email : domainMode ? `@${domain}` : email ? `x:${email}` : '';
  return (
    <div className="space-y-2">
      <select
        id={id}
        className={selectClass}
        value={selected}
        onChange={(e) => {
          const next = e.target.value;
          if (next.startsWith('@'))
            onChange(`${domainMode ? email.slice(0, at) : t('campaigns.sender.defaultLocalPart')}${next}`);
          else if (!next.startsWith('x:')) onChange(next);
        }}
      >
        {selected === '' ? <option value="">{t('campaigns.sender.choose')}</option> : null}
        {selected.startsWith('x:') ? (
          <option value={selected}>{t('campaigns.sender.unverifiedOption', { email })}</option>
        ) : null}
        {allowed.addresses.map((address) => (
          <option key={address} value={address}>
            {address}
          </option>
        ))}
        {allowed.domains.map((d) => (
          <option key={d} value={`@${d}`}>
            {t('campaigns.sender.anyAt', { domain: d })}
          </option>
        ))}
      </select>
      {domainMode ? (
        <div className="flex items-center gap-1">
          <Input
            aria-label={t('campaigns.sender.localPart')}
            value={email.slice(0, at)}
            onChange={(e) => onChange(`${e.target.value.trim()}@${domain}`)}
          />
          <span className="text-sm text-slate-600">@{domain}</span>
        </div>
      ) : null}
      {selected.startsWith('x:') ? (
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900">
          {t('campaigns.sender.unverified', { email })}{' '}
          <Link to={SETTINGS_LINK} className="font-semibold underline">
            {t('campaigns.settingsLink')}
          </Link>
          .
        </p>
      ) : null}
    </div>
  );
}
