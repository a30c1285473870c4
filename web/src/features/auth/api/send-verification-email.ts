import { apiFetch } from '@/lib/api-client';

/** Sends the e-mail-confirmation link again; it lands on `callbackURL`. */
export function sendVerificationEmail(input: { email: string; callbackURL: string }): Promise<unknown> {
  return apiFetch('/api/auth/send-verification-email', { method: 'POST', body: input });
}
