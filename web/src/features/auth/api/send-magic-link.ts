import { apiFetch } from '@/lib/api-client';

/** E-mails a one-time sign-in link that lands on `callbackURL` (a same-origin path). */
export function sendMagicLink(input: { email: string; callbackURL: string }): Promise<unknown> {
  return apiFetch('/api/auth/sign-in/magic-link', { method: 'POST', body: input });
}
