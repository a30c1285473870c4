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
    })
    .nullable(),
  accounts: z.array(z.looseObject({ id: z.string(), name: z.string(), role: roleSchema.optional() })).default([]),
  role: roleSchema.nullable().optional(),
  isOperator: z.boolean().optional().default(false),
});

export type Session = z.infer<typeof sessionSchema>;
export type AccountRole = z.infer<typeof roleSchema>;

export const SESSION_QUERY_KEY = ['session'] as const;

/** The signed-in user and the account loaded for them; throws ApiError 401 (`unauthenticated`) when signed out. */
export async function getSession(signal?: AbortSignal): Promise<Session> {
  return sessionSchema.parse(await apiFetch('/api/session', { signal }));
}

export function parseSession(body: unknown): Session {
  return sessionSchema.parse(body);
}
