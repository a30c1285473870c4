import { useQuery } from '@tanstack/react-query';
import { getSession, SESSION_QUERY_KEY, type Session } from '@/lib/session';

/** The session of the dashboard (loaded by the layout's gate, so `data` is there inside the dashboard). */
export function useSession() {
  return useQuery({ queryKey: SESSION_QUERY_KEY, queryFn: ({ signal }) => getSession(signal) });
}

/** The loaded session; only inside the dashboard shell (after the gate). */
export function useSessionData(): Session {
  const { data } = useSession();
  if (!data) throw new Error('useSessionData used outside the dashboard shell');
  return data;
}

/** Owners and admins manage billing and the team; members do not. */
export function canManage(session: Session): boolean {
  return session.role === 'owner' || session.role === 'admin';
}
