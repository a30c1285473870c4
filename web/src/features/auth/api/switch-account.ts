import { apiFetch } from '@/lib/api-client';
import { parseSession, type Session } from '@/lib/session';

/** Makes `accountId` the current account (a cookie) and answers the new session. */
export async function switchAccount(accountId: string): Promise<Session> {
  return parseSession(await apiFetch('/api/session/account', { method: 'POST', body: { accountId } }));
}
