import { apiFetch } from '@/lib/api-client';

/** Ends the session (clears the cookie). */
export function signOut(): Promise<unknown> {
  return apiFetch('/api/auth/sign-out', { method: 'POST', body: {} });
}
