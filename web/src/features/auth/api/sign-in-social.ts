import { apiFetch } from '@/lib/api-client';

/** Starts Google sign-in: the server answers the provider URL to navigate to. */
export function signInWithGoogle(callbackURL: string): Promise<{ url?: string }> {
  return apiFetch<{ url?: string }>('/api/auth/sign-in/social', {
    method: 'POST',
    body: { provider: 'google', callbackURL },
  });
}
