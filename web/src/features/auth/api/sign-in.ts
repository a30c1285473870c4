import { apiFetch } from '@/lib/api-client';

export interface SignInInput {
  email: string;
  password: string;
}

/** Signs in with e-mail and password; the session cookie comes back on the answer. */
export function signIn(input: SignInInput): Promise<unknown> {
  return apiFetch('/api/auth/sign-in/email', { method: 'POST', body: input });
}
