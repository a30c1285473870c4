import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useI18n } from '@/lib/i18n';
import { toastError } from '@/lib/notify';
import { switchAccount } from '@/lib/queries/auth';
import { queryClient } from '@/lib/query-client';
import { useSessionData } from '@/lib/use-session';

/** A select of the user's accounts, shown only when there are several; switching reloads every query. */
export function AccountSwitcher({ className }: { className?: string }) {
  const { t } = useI18n();
  const session = useSessionData();
  const navigate = useNavigate();
  const id = useId();
  const [pending, setPending] = useState(false);
  if (session.accounts.length < 2 || !session.account) return null;

  async function onChange(accountId: string) {
    setPending(true);
    try {
      await switchAccount(accountId);
      queryClient.clear();
      navigate('/dashboard');
    } catch (error) {
      toastError(t('dashboard.switcher.failed'), error);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500">
        {t('dashboard.switcher.label')}
      </label>
      <select
        id={id}
        value={session.account.id}
        disabled={pending}
        onChange={(event) => void onChange(event.target.value)}
        className="h-10 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm font-medium text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200"
      >
        {session.accounts.map((account) => (
          <option key={account.id} value={account.id}>
            {account.name}
          </option>
        ))}
      </select>
    </div>
  );
}
