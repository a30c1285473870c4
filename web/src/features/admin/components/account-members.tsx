import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { useSessionData } from '@/lib/use-session';
import { type AdminMember, listAccountMembers, setUserAccess } from '../api/admin';
import { confirmAdminAction } from '../utils/confirm-admin-action';

/**
 * The people of an account in the back office: role, and blocked or not (spec §8 `user-disabled`). An operator
 * blocks a user with a reason (every session ends, no sign-in until unblocked) and unblocks them the same way;
 * never themselves.
 */
export function AccountMembers({ accountId }: { accountId: string }) {
  const { t } = useI18n();
  const session = useSessionData();
  const query = useQuery({
    queryKey: ['admin', 'accounts', accountId, 'members'],
    queryFn: ({ signal }) => listAccountMembers(accountId, signal),
  });
  return (
    <section className="space-y-2">
      <h4 className="font-semibold text-slate-900">{t('admin.members.title')}</h4>
      {query.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {t('admin.members.loadFailed')}
        </p>
      ) : null}
      {query.data ? (
        // Kept on screen when a later refetch fails (after an action, say): the alert above says so.
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {query.data.map((member) => (
            <MemberItem key={member.userId} member={member} self={member.userId === session.user.id} />
          ))}
        </ul>
      ) : query.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : null}
    </section>
  );
}

function MemberItem({ member, self }: { member: AdminMember; self: boolean }) {
  const { t } = useI18n();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const blocked = member.disabledAt !== null;
  const action = blocked ? 'enable' : 'disable';

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const why = reason.trim();
    if (why.length < 3) return setError(t('admin.reasonRequired'));
    setError(null);
    confirmAdminAction({
      title: blocked ? t('admin.members.enableConfirm') : t('admin.members.disableConfirm'),
      description: blocked
        ? t('admin.members.enableBody', { email: member.email })
        : t('admin.members.disableBody', { email: member.email }),
      run: () => setUserAccess(member.userId, action, why),
      success: blocked ? t('admin.members.enabled') : t('admin.members.disabled'),
      failure: t('admin.members.failed'),
      onSuccess: () => {
        setReason('');
        setEditing(false);
      },
    });
  }

  return (
    <li className="px-3 py-2 text-sm" data-member={member.email}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">
            {member.name || member.email}
            {self ? <span className="ml-1 text-slate-500">({t('admin.operators.you')})</span> : null}
          </p>
          <p className="text-xs text-slate-500">
            {member.email} · {t(`settings.team.role.${member.role}`)}
          </p>
          {blocked ? (
            <p className="text-xs text-red-700">
              {t('admin.members.blockedSince', {
                date: formatDateTime(member.disabledAt as string),
                reason: member.disabledReason ?? '—',
              })}
            </p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          {blocked ? <Badge tone="danger">{t('admin.members.blocked')}</Badge> : null}
          {!self && !editing ? (
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              {blocked ? t('admin.members.enable') : t('admin.members.disable')}
            </Button>
          ) : null}
        </div>
      </div>
      {editing ? (
        <form noValidate onSubmit={onSubmit} className="mt-2 flex flex-wrap items-end gap-2">
          <div className="min-w-[14rem] flex-1">
            <Label htmlFor={reasonId}>{t('admin.reason')}</Label>
            <Input id={reasonId} value={reason} onChange={(e) => setReason(e.target.value)} className="mt-1" />
          </div>
          <Button type="submit" size="sm" variant={blocked ? 'primary' : 'destructive'}>
            {blocked ? t('admin.members.enable') : t('admin.members.disable')}
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => setEditing(false)}>
            {t('common.cancel')}
          </Button>
          <FieldError>{error}</FieldError>
        </form>
      ) : null}
    </li>
  );
}
