import { ERROR_HTTP_STATUS, ERROR_MESSAGES_PT_BR, type ErrorCode } from '@carteiro/shared';

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
  ) {
    super(message ?? ERROR_MESSAGES_PT_BR[code]);
    this.name = 'AppError';
    this.status = ERROR_HTTP_STATUS[code];
  }
}
