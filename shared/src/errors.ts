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
  // public API v1
  'invalid_api_key',
  'api_key_scope',
  'api_key_in_url',
  'idempotency_key_invalid',
  'idempotency_key_reused',
  'idempotency_key_in_progress',
  'unknown_fields',
  'method_not_allowed',
  'unsupported_media_type',
  'contact_exists',
  'address_suppressed',
  'consent_required',
  'suppression_not_manual',
  'campaign_exists',
  'campaign_already_sending',
  'campaign_not_editable',
  'campaign_not_ready',
  'message_not_scheduled',
  'file_quota_exceeded',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one HTTP status of every error code: a condition answers the same status on every route, so a client can
 * branch on either. A different status is a different condition, hence a different code.
 */
export const ERROR_HTTP_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  payload_too_large: 413,
  unauthenticated: 401,
  forbidden: 403,
  csrf_rejected: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  internal_error: 500,
  service_unavailable: 503,
  'invalid-email': 400,
  'wrong-password': 401,
  'invalid-credential': 401,
  'email-already-in-use': 422,
  'user-not-found': 401,
  'too-many-requests': 429,
  'expired-action-code': 400,
  'invalid-action-code': 400,
  'requires-recent-login': 403,
  'user-token-expired': 401,
  'user-disabled': 403,
  'password-does-not-meet-requirements': 400,
  'network-request-failed': 503,
  'popup-closed-by-user': 400,
  insufficient_balance: 402,
  account_suspended: 403,
  unsupported_image: 415,
  image_too_large: 413,
  email_not_verified: 403,
  sender_not_verified: 403,
  invalid_api_key: 401,
  api_key_scope: 403,
  api_key_in_url: 400,
  idempotency_key_invalid: 400,
  idempotency_key_reused: 422,
  idempotency_key_in_progress: 409,
  unknown_fields: 400,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  contact_exists: 409,
  address_suppressed: 409,
  consent_required: 409,
  suppression_not_manual: 409,
  campaign_exists: 409,
  campaign_already_sending: 409,
  message_not_scheduled: 409,
  file_quota_exceeded: 409,
  campaign_not_editable: 409,
  campaign_not_ready: 409,
};

/** The JSON body of every error answer. */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** The texts the web client needs before the catalogue is loaded (kept out of the landing's bundle). */
export const INTERNAL_ERROR_PT_BR = 'Algo deu errado do nosso lado. Tente de novo em instantes.';
export const NETWORK_ERROR_PT_BR = 'Não foi possível conectar. Verifique sua internet e tente de novo.';
export const TOO_MANY_REQUESTS_PT_BR = 'Muitas tentativas. Aguarde um pouco e tente de novo.';
