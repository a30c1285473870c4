import { apiFetch } from '@/lib/api-client';
import { parseSession, type Session } from '@/lib/session';

/**
 * The auth calls that pages outside the /auth pages make too (the dashboard's verification banner and account
 * switcher, the settings' security panel). The rest of the auth calls stay in features/auth/api/.
 */

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

/** Sends the e-mail-confirmation link again; it lands on `callbackURL`. */
export function sendVerificationEmail(input: { email: string; callbackURL: string }): Promise<unknown> {
  return apiFetch('/api/auth/send-verification-email', { method: 'POST', body: input });
}

/** Makes `accountId` the current account (a cookie) and answers the new session. */
export async function switchAccount(accountId: string): Promise<Session> {
  return parseSession(await apiFetch<unknown>('/api/session/account', { method: 'POST', body: { accountId } }));
}

/**
 * Asks to change the sign-in e-mail (needs a recent sign-in: else ApiError `requires-recent-login`). A verified
 * user confirms from the current address first, then the new address is verified; the link lands on `callbackURL`.
 */
export function changeEmail(input: { newEmail: string; callbackURL: string }): Promise<unknown> {
  return apiFetch('/api/auth/change-email', { method: 'POST', body: input });
}

/** Changes the password (needs a recent sign-in: else ApiError `requires-recent-login`); other sessions end. */
export function changePassword(input: { currentPassword: string; newPassword: string }): Promise<unknown> {
  return apiFetch('/api/auth/change-password', { method: 'POST', body: { ...input, revokeOtherSessions: true } });
}
