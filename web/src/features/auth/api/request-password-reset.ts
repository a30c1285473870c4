import { apiFetch } from '@/lib/api-client';

/** Asks for a reset e-mail whose link opens `redirectTo?token=…`. Answers the same whether the e-mail exists or not. */
export function requestPasswordReset(input: { email: string; redirectTo: string }): Promise<unknown> {
  return apiFetch('/api/auth/request-password-reset', { method: 'POST', body: input });
}
