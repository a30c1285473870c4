import { createHash } from 'node:crypto';

/** sha256 hex of a normalised address: what the suppression list keeps (never the address itself). */
export function hashEmail(normalisedEmail: string): string {
  return createHash('sha256').update(normalisedEmail).digest('hex');
}
