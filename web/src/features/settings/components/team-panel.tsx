import { ACCOUNT_ROLE_VALUES, type AccountRole, invitationCreateSchema } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ErrorPanel } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { firstIssueText } from '@/lib/form-fields';
import { formatDate } from '@/lib/format';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { toastError, toastSuccess } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';
import { canManage, useSessionData } from '@/lib/use-session';
import { confirmAction } from '@/stores/app-store';
import {
  changeMemberRole,
  INVITATIONS_QUERY_KEY,
  inviteMember,
  listInvitations,
  listMembers,
  MEMBERS_QUERY_KEY,
  removeMember,
  revokeInvitation,
} from '../api/team';

const ROLE_LABEL: Record<AccountRole, MessageKey> = {
  owner: 'settings.team.role.owner',
  admin: 'settings.team.role.admin',
  member: 'settings.team.role.member',
};

const selectClass =
  'h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200';

function refresh() {
  void queryClient.invalidateQueries({ queryKey: ['team'] });
}

/** Equipe: invite form, pending invitations (revoke), members (role, remove). Members see the list only. */
export function TeamPanel() {
  const { t } = useI18n();
  const session = useSessionData();
  const manager = canManage(session);
  return (
    <div className="space-y-8">
      {manager ? (
        <InviteForm ownerActor={session.role === 'owner'} />
      ) : (
        <p className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
          {t('settings.team.memberNotice')}
        </p>
      )}
      {manager ? <Invitations /> : null}
      <Members manager={manager} ownerActor={session.role === 'owner'} selfId={session.user.id} />
    </div>
  );
}

function InviteForm({ ownerActor }: { ownerActor: boolean }) {
  const { t } = useI18n();
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AccountRole>('member');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = invitationCreateSchema.safeParse({ email, role });
    if (!parsed.success) return setError(firstIssueText(parsed.error) ?? t('auth.validation.email'));
    setError(null);
    setPending(true);
    try {
      await inviteMember(parsed.data);
      toastSuccess(t('settings.team.invited', { email: parsed.data.email }));
      setEmail('');
      refresh();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="rounded-xl border border-slate-200 p-4 sm:p-5">
      <h3 className="font-semibold text-slate-900">{t('settings.team.inviteTitle')}</h3>
      <p className="mt-1 text-sm text-slate-600">{t('settings.team.inviteBody')}</p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Label htmlFor={`${id}-email`}>{t('auth.email')}</Label>
          <Input
            id={`${id}-email`}
            name="invite-email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error ? true : undefined}
            placeholder={t('settings.team.emailPlaceholder')}
            className="mt-1.5"
          />
        </div>
        <div>
          <Label htmlFor={`${id}-role`}>{t('settings.team.roleLabel')}</Label>
          <select
            id={`${id}-role`}
            value={role}
            onChange={(e) => setRole(e.target.value as AccountRole)}
            className={`${selectClass} mt-1.5 h-11 w-full sm:w-40`}
          >
            {ACCOUNT_ROLE_VALUES.filter((r) => ownerActor || r !== 'owner').map((r) => (
              <option key={r} value={r}>
                {t(ROLE_LABEL[r])}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" size="lg" disabled={pending}>
          {pending ? <Spinner className="text-white" /> : null}
          {t('settings.team.send')}
        </Button>
      </div>
      <FieldError>{error}</FieldError>
    </form>
  );
}

function Invitations() {
  const { t } = useI18n();
  const query = useQuery({ queryKey: INVITATIONS_QUERY_KEY, queryFn: ({ signal }) => listInvitations(signal) });
  return (
    <section aria-labelledby="convites-title">
      <h3 id="convites-title" className="mb-3 font-semibold text-slate-900">
        {t('settings.team.pending')}
      </h3>
      {query.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : query.isError ? (
        <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <p className="text-sm text-slate-500">{t('settings.team.noPending')}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
          {query.data.map((invitation) => (
            <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">{invitation.email}</p>
                <p className="text-xs text-slate-500">
                  {t(ROLE_LABEL[invitation.role])} ·{' '}
                  {t('settings.team.expires', { date: formatDate(invitation.expiresAt) })}
                </p>
              </div>
              <Button
                variant="ghost"
                size="sm"
                className="text-red-700! hover:bg-red-50"
                onClick={() =>
                  confirmAction({
                    title: t('settings.team.revokeTitle'),
                    description: t('settings.team.revokeBody', { email: invitation.email }),
                    action: async () => {
                      try {
                        await revokeInvitation(invitation.id);
                        toastSuccess(t('settings.team.revoked'));
                      } catch (error) {
                        toastError(t('settings.team.revokeFailed'), error);
                      }
                      refresh();
                    },
                  })
                }
              >
                {t('settings.team.revoke')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Members({ manager, ownerActor, selfId }: { manager: boolean; ownerActor: boolean; selfId: string }) {
  const { t } = useI18n();
  const query = useQuery({ queryKey: MEMBERS_QUERY_KEY, queryFn: ({ signal }) => listMembers(signal) });

  async function onRole(userId: string, role: AccountRole) {
    try {
      await changeMemberRole(userId, role);
      toastSuccess(t('settings.team.roleChanged'));
    } catch (error) {
      toastError(t('settings.team.roleFailed'), error);
    }
    refresh();
  }

  return (
    <section aria-labelledby="membros-title">
      <h3 id="membros-title" className="mb-3 font-semibold text-slate-900">
        {t('settings.team.members')}
      </h3>
      {query.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : query.isError ? (
        <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <EmptyState title={t('settings.team.emptyTitle')} description={t('settings.team.emptyBody')} />
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
          {query.data.map((member) => {
            const self = member.userId === selfId;
            const canEdit = manager && !self && (ownerActor || member.role !== 'owner');
            return (
              <li key={member.userId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">
                    {member.name || member.email} {self ? <Badge tone="neutral">{t('settings.team.you')}</Badge> : null}
                  </p>
                  <p className="text-xs text-slate-500">
                    <span className="break-all">{member.email}</span> ·{' '}
                    <span className="whitespace-nowrap" data-testid="member-since">
                      {t('settings.team.since', { date: formatDate(member.joinedAt) })}
                    </span>
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  {canEdit ? (
                    <select
                      aria-label={t('settings.team.roleOf', { name: member.email ?? '' })}
                      value={member.role}
                      onChange={(e) => void onRole(member.userId, e.target.value as AccountRole)}
                      className={selectClass}
                    >
                      {ACCOUNT_ROLE_VALUES.filter((r) => ownerActor || r !== 'owner').map((r) => (
                        <option key={r} value={r}>
                          {t(ROLE_LABEL[r])}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <Badge tone={member.role === 'owner' ? 'brand' : 'neutral'}>{t(ROLE_LABEL[member.role])}</Badge>
                  )}
                  {canEdit ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-red-700! hover:bg-red-50"
                      onClick={() =>
                        confirmAction({
                          title: t('settings.team.removeTitle'),
                          description: t('settings.team.removeBody', { name: member.name || member.email || '' }),
                          action: async () => {
                            try {
                              await removeMember(member.userId);
                              toastSuccess(t('settings.team.removed'));
                            } catch (error) {
                              toastError(t('settings.team.removeFailed'), error);
                            }
                            refresh();
                          },
                        })
                      }
                    >
                      {t('settings.team.remove')}
                    </Button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
