import type { PublicApiErrorCode } from '@carteiro/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ApiKeyContext } from './api-keys';
import type { KeyRider } from './rate-limit';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface OperationContext<P, Q, B> {
  /** The authenticated key: its account (scope every query by it), id and scope. */
  key: ApiKeyContext;
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
  /**
   * The columns of the operation's read that rode on the key statement (`keyRider`); null when the request was
   * authenticated on its own (then the operation reads for itself).
   */
  keyRead: Record<string, unknown> | null;
}

/**
 * One operation of the public API v1. The same object registers the Fastify route and writes its OpenAPI
 * entry (openapi.ts), so the document cannot drift from the routes.
 */
export interface OperationSpec<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> {
  method: HttpMethod;
  /** OpenAPI-style path under /api/v1, e.g. `/contacts/{id}`. */
  path: string;
  operationId: string;
  /** pt-BR. */
  summary: string;
  description?: string;
  tags: string[];
  /** true when a `send_only` key may call it (sending messages and reading their results). Default: full only. */
  sendOnly?: boolean;
  /** Path parameters; a value that does not parse answers 404 with `notFoundMessage`. */
  params?: P;
  notFoundMessage?: string;
  query?: Q;
  body?: B;
  /**
   * A cheaper check of the usual bodies (http/validate.ts parseInput's `fastPath`): exactly the schema's output when
   * it is sure the schema accepts the body, undefined otherwise (the schema then parses it, with its own errors).
   */
  bodyFastPath?(body: unknown): Infer<B> | undefined;
  /** The largest JSON body in bytes when it is not BODY_LIMIT_BYTES (messages with attachments); larger → 413. */
  bodyLimit?: number;
  /** The success answer: its status and, unless it is 204, the schema of its JSON body. */
  success: { status: 200 | 201 | 202 | 204; description: string; schema?: z.ZodType };
  /**
   * The error codes this operation answers beyond those its shape implies (`operationErrorCodes` in openapi.ts):
   * e.g. `['insufficient_balance', 'sender_not_verified']`. Each goes into the document under its one status.
   */
  errors?: PublicApiErrorCode[];
  /**
   * The operation's first read, folded into the key statement (rate-limit.ts `keyRiderStatement`): one round trip
   * for the key, its rate limit and this read. Given the parsed body; the row reaches the handler as `keyRead`. The
   * plugin folds only requests where that changes no answer (public-api.routes.ts `foldsKeyRead`).
   */
  keyRider?(body: Infer<B>): KeyRider;
  /** A valid request, used by the documentation, the contract test and the fuzz pass. */
  example?: { body?: unknown; query?: Record<string, string> };
  handler(ctx: OperationContext<Infer<P>, Infer<Q>, Infer<B>>): Promise<unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds operations of every input shape.
export type Operation = OperationSpec<any, any, any>;

/** Declares an operation with its handler typed from its schemas. */
export function defineOperation<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: OperationSpec<P, Q, B>): Operation {
  return spec as Operation;
}

/** `/contacts/{id}` → `/contacts/:id`. */
export function toFastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
