import type { ApiErrorBody } from '@carteiro/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error';

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  const body: ApiErrorBody = { error: { code: error.code, message: error.message } };
  if (error.details !== undefined) body.error.details = error.details;
  // A limit that knows when it opens again says so (RFC 9110 Retry-After), whoever raised it.
  const retryAfter = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  if (error.status === 429 && typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  return reply.status(error.status).send(body);
}

/** Turns anything thrown by Fastify itself (bad JSON, body too large…) into the AppError it means. */
function toAppError(error: FastifyError): AppError | null {
  if (error instanceof AppError) return error;
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new AppError('invalid_json');
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError('invalid_json');
  if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError('payload_too_large');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new AppError('unsupported_media_type');
  }
  if (error.statusCode === 429) return new AppError('too_many_requests');
  if (error.statusCode === 404) return new AppError('not_found');
  if (error.statusCode === 405) return new AppError('method_not_allowed');
  if (error.statusCode === 415) return new AppError('unsupported_media_type');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return new AppError('bad_request');
  return null;
}

/** One error handler for the whole API: known errors become pt-BR 4xx; anything else is logged and masked as 500. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError) {
      if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(reply, appError);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(reply, new AppError('internal_error'));
  });
}
