import { ERROR_MESSAGES_PT_BR, type ErrorCode } from '@carteiro/shared';

const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
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
  email_not_verified: 403,
  sender_not_verified: 403,
  invalid_api_key: 401,
  api_key_scope: 403,
  api_key_in_url: 400,
  idempotency_key_invalid: 400,
  idempotency_key_reused: 422,
  idempotency_key_in_progress: 409,
};

/**
 * The one error type domain code throws. The HTTP layer maps its code to a status and a pt-BR message;
 * `message` overrides the catalogue text when the domain has something more precise to say.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: unknown,
    status?: number,
  ) {
    super(message ?? ERROR_MESSAGES_PT_BR[code]);
    this.name = 'AppError';
    this.status = status ?? STATUS_BY_CODE[code] ?? 400;
  }
}
