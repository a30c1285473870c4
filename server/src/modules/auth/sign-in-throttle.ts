import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';
import { authSignInFailures } from './auth.db';

/**
 * The per-account half of sign-in throttling (OWASP ASVS 5.0 §6.3): the per-address limit stops one client, this
 * stops many clients (a botnet, rotating addresses) guessing one account's password. Every password sign-in
 * attempt for an e-mail counts until one succeeds; after `freeFailures` of them each further attempt must wait a
 * delay that doubles (30 s, 1 min, 2 min…) up to `maxDelaySeconds`. A delay, not a lock-out: the owner can still
 * get in by magic link or password reset, and the attacker gets a few guesses an hour. Unknown e-mails are
 * counted exactly like known ones, so the answer tells nothing about who is registered.
 */
export interface SignInThrottleSettings {
  freeFailures: number;
  maxDelaySeconds: number;
}

export const SIGN_IN_FIRST_DELAY_SECONDS = 30;
/** Consecutive failures are forgotten after a quiet day. */
const FORGET_AFTER = sql`interval '1 day'`;

function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/**
 * Claims one sign-in attempt for `email`, atomically: refused (with the seconds left) while the account's delay
 * runs; otherwise counted as a failure in advance and, from the `freeFailures`-th on, the next delay set at once —
 * so a burst of parallel guesses gets through no faster than a sequence. A success clears it (`clearSignInFailures`).
 */
export async function claimSignInAttempt(
  db: Db,
  email: string,
  settings: SignInThrottleSettings,
): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  const hash = emailHash(email);
  const free = settings.freeFailures;
  // The delay after the n-th failure: 0 before `free`, then FIRST × 2^(n − free), capped (exponent capped too).
  const delayAfter = (n: ReturnType<typeof sql>) =>
    sql`case when ${n} < ${free}::int then null
             else now() + make_interval(secs => least(${settings.maxDelaySeconds}::float8,
                    ${SIGN_IN_FIRST_DELAY_SECONDS}::float8 * power(2::float8, least(${n} - ${free}::int, 30))))
        end`;
  const claimed = await queryRows<{ failures: number }>(
    db,
    sql`insert into auth_sign_in_failures as f (email_hash, failures, blocked_until, updated_at)
        values (${hash}, 1, ${delayAfter(sql`1`)}, now())
        on conflict (email_hash) do update
          set failures = case when f.updated_at < now() - ${FORGET_AFTER} then 1 else f.failures + 1 end,
              blocked_until = ${delayAfter(sql`(case when f.updated_at < now() - ${FORGET_AFTER} then 1 else f.failures + 1 end)`)},
              updated_at = now()
          where f.blocked_until is null or f.blocked_until <= now()
        returning failures`,
  );
  if (claimed.length > 0) return { allowed: true };
  // Seconds left by the database's clock, the one that set the delay.
  const [row] = await queryRows<{ seconds: number | null }>(
    db,
    sql`select ceil(extract(epoch from blocked_until - now()))::int as seconds
          from auth_sign_in_failures where email_hash = ${hash}`,
  );
  return { allowed: false, retryAfterSeconds: Math.max(1, Number(row?.seconds ?? 1)) };
}

/** A successful sign-in (or password reset) ends the run of failures for that e-mail. */
export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.delete(authSignInFailures).where(eq(authSignInFailures.emailHash, emailHash(email)));
}
