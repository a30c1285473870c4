import { type SessionView, sessionViewSchema } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

/** The session as the server answers it: checked at runtime against the one shared schema of that answer. */
export type Session = SessionView;

export const SESSION_QUERY_KEY = ['session'] as const;

/** The uuid this client generated for an account to create at session start (spec §3: generated on the client). */
let newAccountUuid: string | null = null;

/**
 * The signed-in user and the account loaded for them (spec §4 session start: the account owned by or shared with
 * the user; when there is none, the server creates one with this client's uuid). Throws ApiError 401
 * (`unauthenticated`, or `user-token-expired` when the session ended) when signed out.
 */
export async function getSession(signal?: AbortSignal): Promise<Session> {
  newAccountUuid ??= crypto.randomUUID();
  const url = `/api/session?newAccountUuid=${encodeURIComponent(newAccountUuid)}`;
  return parseSession(await apiFetch<unknown>(url, { signal }));
}

/** Checks an answer of /api/session (or the account switch) against the shared schema the server's type comes from. */
export function parseSession(body: unknown): Session {
  return sessionViewSchema.parse(body);
}
