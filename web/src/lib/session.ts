import type { SessionView } from '@carteiro/shared';
import { z } from 'zod';
import { apiFetch } from '@/lib/api-client';

const roleSchema = z.enum(['owner', 'admin', 'member']);

const sessionSchema = z.object({
  user: z.object({ id: z.string(), name: z.string(), email: z.string(), emailVerified: z.boolean() }),
  account: z
    .looseObject({
      id: z.string(),
      uuid: z.string(),
      name: z.string(),
      balanceMillis: z.number().optional(),
      priceMillis: z.number().optional(),
      status: z.string().optional(),
      // The footer identity (the editor shows it in the locked footer block).
      legalName: z.string().nullable().optional(),
      taxId: z.string().nullable().optional(),
      address: z.string().nullable().optional(),
    })
    .nullable(),
  accounts: z.array(z.looseObject({ id: z.string(), name: z.string(), role: roleSchema.optional() })).default([]),
  role: roleSchema.nullable().optional(),
  isOperator: z.boolean().optional().default(false),
});

/**
 * The server answers a SessionView (shared); this schema checks it at runtime and fills defaults. `satisfies` in
 * parseSession keeps the two in step: a field the server stops sending that the schema requires is a compile error.
 */
export type Session = z.infer<typeof sessionSchema>;
export type AccountRole = z.infer<typeof roleSchema>;

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
  return parseSession(await apiFetch<SessionView>(url, { signal }));
}

export function parseSession(body: SessionView): Session {
  return sessionSchema.parse(body satisfies z.input<typeof sessionSchema>);
}
