import { apiFetch } from '@/lib/api-client';

/** Changes the password (needs a recent sign-in: else ApiError `requires-recent-login`); other sessions end. */
export function changePassword(input: { currentPassword: string; newPassword: string }): Promise<unknown> {
  return apiFetch('/api/auth/change-password', { method: 'POST', body: { ...input, revokeOtherSessions: true } });
}
