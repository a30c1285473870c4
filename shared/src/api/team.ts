import type { AccountRole } from '../schemas/account';

/** Team responses (/api/account/members, /api/account/invitations): the shapes the server answers and the web reads. */

/** A person of the account. */
export interface TeamMember {
  userId: string;
  role: AccountRole;
  joinedAt: string;
  name: string | null;
  email: string | null;
}

/** An invitation still open (not accepted, revoked or expired). */
export interface TeamInvitation {
  id: string;
  email: string;
  role: AccountRole;
  invitedBy: string;
  expiresAt: string;
  createdAt: string;
}
