/**
 * Error codes shared by server and web. The server answers `{ error: { code, message } }`;
 * the web shows the message of its own locale for the code (falling back to the server's text).
 */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'invalid_json',
  'payload_too_large',
  'unauthenticated',
  'forbidden',
  'csrf_rejected',
  'not_found',
  'conflict',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
  // identity (spec §8)
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
  'email_not_verified',
  // billing
  'insufficient_balance',
  'account_suspended',
  // uploads
  'unsupported_image',
  'image_too_large',
  // sender identities
  'sender_not_verified',
  // public API v1 (issue 12)
  'invalid_api_key',
  'api_key_scope',
  'api_key_in_url',
  'idempotency_key_invalid',
  'idempotency_key_reused',
  'idempotency_key_in_progress',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The JSON body of every error answer. */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** The two texts the web client needs before the catalogue is loaded (kept out of the landing's bundle). */
export const INTERNAL_ERROR_PT_BR = 'Algo deu errado do nosso lado. Tente de novo em instantes.';
export const NETWORK_ERROR_PT_BR = 'Não foi possível conectar. Verifique sua internet e tente de novo.';
