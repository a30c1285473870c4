import { apiFetch } from '@/lib/api-client';

/** Sets a new password with the token from the reset e-mail. */
export function resetPassword(input: { newPassword: string; token: string }): Promise<unknown> {
  return apiFetch('/api/auth/reset-password', { method: 'POST', body: input });
}
