import { ERROR_CODES, ERROR_MESSAGES_PT_BR, type ErrorCode } from '@carteiro/shared';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error';
import { mapAuthError } from './auth-errors';

const map = (path: string, status: number, code?: string, message?: string) =>
  mapAuthError(path, status, code === undefined ? null : { code, message }, 6, 128);

/** The identity error codes of spec §8. */
const SPEC_IDENTITY_CODES = [
  'invalid-email',
  'wrong-password',
  'invalid-credential',
  'email-already-in-use',
  'user-not-found',
  'too-many-requests',
  'expired-action-code',
  'invalid-action-code',
  'requires-recent-login',
  'user-token-expired',
  'user-disabled',
  'password-does-not-meet-requirements',
  'network-request-failed',
  'popup-closed-by-user',
] as const;

describe('spec §8 identity error codes', () => {
  it.each(SPEC_IDENTITY_CODES)('%s is a shared error code with a pt-BR message', (code) => {
    expect(ERROR_CODES).toContain(code);
    expect(ERROR_MESSAGES_PT_BR[code]).toMatch(/\S/);
    // Never an English better-auth text.
    expect(ERROR_MESSAGES_PT_BR[code]).not.toMatch(/\b(the|invalid|password|user)\b/i);
  });

  it('unknown e-mail, wrong password and user-not-found read the same', () => {
    expect(ERROR_MESSAGES_PT_BR['invalid-credential']).toBe('E-mail ou senha incorretos.');
    expect(ERROR_MESSAGES_PT_BR['user-not-found']).toBe(ERROR_MESSAGES_PT_BR['invalid-credential']);
    expect(ERROR_MESSAGES_PT_BR['wrong-password']).toBe(ERROR_MESSAGES_PT_BR['invalid-credential']);
  });
});

describe('mapAuthError', () => {
  it.each<[string, number, string, ErrorCode, number]>([
    ['/sign-in/email', 401, 'INVALID_EMAIL_OR_PASSWORD', 'invalid-credential', 401],
    ['/sign-in/email', 401, 'USER_NOT_FOUND', 'invalid-credential', 401],
    ['/sign-in/email', 401, 'CREDENTIAL_ACCOUNT_NOT_FOUND', 'invalid-credential', 401],
    ['/sign-in/email', 401, 'INVALID_PASSWORD', 'invalid-credential', 401],
    ['/change-password', 400, 'INVALID_PASSWORD', 'wrong-password', 401],
    ['/sign-up/email', 400, 'INVALID_EMAIL', 'invalid-email', 400],
    ['/sign-up/email', 400, 'PASSWORD_TOO_SHORT', 'password-does-not-meet-requirements', 400],
    ['/reset-password', 400, 'PASSWORD_TOO_LONG', 'password-does-not-meet-requirements', 400],
    ['/sign-up/email', 422, 'USER_ALREADY_EXISTS', 'email-already-in-use', 422],
    ['/sign-up/email', 422, 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', 'email-already-in-use', 422],
    ['/reset-password', 400, 'TOKEN_EXPIRED', 'expired-action-code', 400],
    ['/reset-password', 400, 'INVALID_TOKEN', 'invalid-action-code', 400],
    ['/change-email', 403, 'SESSION_NOT_FRESH', 'requires-recent-login', 403],
    ['/change-email', 401, 'SESSION_EXPIRED', 'requires-recent-login', 403],
    ['/sign-in/email', 403, 'USER_DISABLED', 'user-disabled', 403],
    ['/sign-in/email', 403, 'EMAIL_NOT_VERIFIED', 'forbidden', 403],
    ['/sign-in/email', 403, 'INVALID_ORIGIN', 'csrf_rejected', 403],
    ['/sign-in/email', 403, 'MISSING_OR_NULL_ORIGIN', 'csrf_rejected', 403],
    ['/sign-in/magic-link', 403, 'INVALID_CALLBACK_URL', 'csrf_rejected', 403],
    ['/sign-up/email', 400, 'VALIDATION_ERROR', 'validation_failed', 400],
    ['/sign-in/email', 429, 'ANYTHING', 'too-many-requests', 429],
    ['/sign-in/email', 429, '', 'too-many-requests', 429],
  ])('%s %i %s → %s (%i)', (path, status, code, expected, expectedStatus) => {
    const error = map(path, status, code);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe(expected);
    expect(error.status).toBe(expectedStatus);
    // Every message is pt-BR, never better-auth's English text.
    expect(error.message).not.toMatch(/invalid|password|user|token/i);
  });

  it('an invalid e-mail inside a validation error is invalid-email', () => {
    expect(map('/sign-up/email', 400, 'VALIDATION_ERROR', '[body.email] Invalid email address').code).toBe(
      'invalid-email',
    );
  });

  it('says the configured password lengths', () => {
    const error = mapAuthError('/sign-up/email', 400, { code: 'PASSWORD_TOO_SHORT' }, 8, 64);
    expect(error.message).toBe('A senha deve ter entre 8 e 64 caracteres.');
  });

  it('the wrong current password on a change says so in pt-BR', () => {
    expect(map('/change-password', 400, 'INVALID_PASSWORD').message).toBe('Senha atual incorreta.');
  });

  it('unknown e-mail and wrong password give identical errors', () => {
    const unknown = map('/sign-in/email', 401, 'USER_NOT_FOUND');
    const wrong = map('/sign-in/email', 401, 'INVALID_EMAIL_OR_PASSWORD');
    expect([unknown.code, unknown.status, unknown.message]).toEqual([wrong.code, wrong.status, wrong.message]);
  });

  it.each<[number, ErrorCode]>([
    [401, 'unauthenticated'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [422, 'validation_failed'],
    [500, 'internal_error'],
    [502, 'internal_error'],
    [400, 'bad_request'],
    [418, 'bad_request'],
  ])('an unknown code with status %i falls back to %s', (status, expected) => {
    const error = map('/x', status, 'SOMETHING_NEW');
    expect(error.code).toBe(expected);
    expect(error.message).toBe(ERROR_MESSAGES_PT_BR[expected]);
    expect(map('/x', status).code).toBe(expected);
  });
});
