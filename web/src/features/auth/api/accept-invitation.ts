import { apiFetch } from '@/lib/api-client';

/** Joins the account of an invitation (the signed-in user's e-mail must be the invited one). */
export function acceptInvitation(input: { accountId: string; token: string }) {
  return apiFetch<{ account: { id: string; name: string }; role: string }>('/api/invitations/accept', {
    method: 'POST',
    body: input,
  });
}
