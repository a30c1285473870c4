import { apiFetch } from '@/lib/api-client';

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
}

/** Where the confirmation link of the verification e-mail lands. */
export const EMAIL_VERIFIED_PATH = '/auth/email-verified';

/** Creates a user with e-mail and password (the server sends the verification e-mail, linking to EMAIL_VERIFIED_PATH). */
export function signUp(input: SignUpInput): Promise<unknown> {
  return apiFetch('/api/auth/sign-up/email', {
    method: 'POST',
    body: { ...input, callbackURL: EMAIL_VERIFIED_PATH },
  });
}
