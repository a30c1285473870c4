import { apiFetch } from '@/lib/api-client';

/**
 * Asks to change the sign-in e-mail (needs a recent sign-in: else ApiError `requires-recent-login`). A verified
 * user confirms from the current address first, then the new address is verified; the link lands on `callbackURL`.
 */
export function changeEmail(input: { newEmail: string; callbackURL: string }): Promise<unknown> {
  return apiFetch('/api/auth/change-email', { method: 'POST', body: input });
}
