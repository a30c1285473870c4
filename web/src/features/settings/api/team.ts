import type { AccountRole, TeamInvitation, TeamMember } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

export const MEMBERS_QUERY_KEY = ['team', 'members'] as const;
export const INVITATIONS_QUERY_KEY = ['team', 'invitations'] as const;

export async function listMembers(signal?: AbortSignal): Promise<TeamMember[]> {
  return (await apiFetch<{ members: TeamMember[] }>('/api/account/members', { signal })).members;
}

export function changeMemberRole(userId: string, role: AccountRole): Promise<unknown> {
  return apiFetch(`/api/account/members/${encodeURIComponent(userId)}`, { method: 'PATCH', body: { role } });
}

export function removeMember(userId: string): Promise<unknown> {
  return apiFetch(`/api/account/members/${encodeURIComponent(userId)}`, { method: 'DELETE' });
}

export async function listInvitations(signal?: AbortSignal): Promise<TeamInvitation[]> {
  return (await apiFetch<{ invitations: TeamInvitation[] }>('/api/account/invitations', { signal })).invitations;
}

export function inviteMember(input: { email: string; role: AccountRole }): Promise<unknown> {
  return apiFetch('/api/account/invitations', { method: 'POST', body: input });
}

export function revokeInvitation(id: string): Promise<unknown> {
  return apiFetch(`/api/account/invitations/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
