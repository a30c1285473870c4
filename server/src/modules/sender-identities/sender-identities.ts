import { createHash } from 'node:crypto';
import type { SenderAlignment, SenderDomainStatus } from '@carteiro/shared';
import { and, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { Tx } from '../accounts/account-balance';
import { accountDirectory } from '../accounts/account-directory';
import { type PlatformTargets, TRACKING_LABEL } from './dns-records';
import { senderAddresses, senderDomains } from './sender-identities.db';

// Who may send as whom: the rule every send path asks (campaigns, transactional, automations, tests), and what the
// module's other files share. Addresses, domains, their DNS checks and the operator's view live beside it.

/** What the module needs from the configuration (sender-identities.routes.ts builds it from Config). */
export interface SenderIdentitySettings extends PlatformTargets {
  /** The server secret the DKIM keys are encrypted with. */
  secret: string;
  publicUrl: string;
  /** Hours an address confirmation link stays valid. */
  confirmHours: number;
  /** TRACKING_DOMAINS: false → the TLS ask says no to every host. Default true. */
  trackingDomains?: boolean;
}

export const MAX_ADDRESSES = 50;
export const MAX_DOMAINS = 20;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export type DomainRow = typeof senderDomains.$inferSelect;

/** A domain's status as shown: an operator's suspension overrides what DNS says. */
export function domainStatus(row: DomainRow): SenderDomainStatus {
  return row.suspendedAt ? 'suspended' : row.status;
}

// ---------------------------------------------------------------------------------------------------------------
// Sending rules

/** The account's verified, not suspended domain row for `domain`, or null. */
export async function findVerifiedDomain(db: Db | Tx, accountId: string, domain: string): Promise<DomainRow | null> {
  const [row] = await (db as Db)
    .select()
    .from(senderDomains)
    .where(
      and(
        eq(senderDomains.accountId, accountId),
        eq(senderDomains.domain, domain),
        eq(senderDomains.status, 'verified'),
        isNull(senderDomains.suspendedAt),
      ),
    );
  return row ?? null;
}

/** Whether the account may send as `fromEmail`: a confirmed address, or any address at a verified domain. */
export async function isSenderAllowed(db: Db, accountId: string, fromEmail: string): Promise<boolean> {
  const email = fromEmail.trim().toLowerCase();
  const [address] = await db
    .select({ id: senderAddresses.id })
    .from(senderAddresses)
    .where(
      and(
        eq(senderAddresses.accountId, accountId),
        eq(senderAddresses.email, email),
        isNotNull(senderAddresses.confirmedAt),
      ),
    );
  if (address) return true;
  return (await findVerifiedDomain(db, accountId, domainOf(email))) !== null;
}

/** The address and its domain as the sending rule compares them (senderAllowedOverSql's `email` and `domain`). */
export function senderAllowedKey(fromEmail: string): { email: string; domain: string } {
  const email = fromEmail.trim().toLowerCase();
  return { email, domain: domainOf(email) };
}

/**
 * `isSenderAllowed` as a boolean SQL expression over SQL values of `senderAllowedKey`, for a hot path that folds
 * this check into a statement of its own (the transactional send reads the account, its senders — the columns of
 * an `unnest`, so its statement keeps one text — and its suppressions in one round trip). Same rule, same tables:
 * a confirmed address of the account, or any address at a verified, not suspended domain of it. The account is a
 * value, or an SQL expression of the carrying statement (the API key's account, public-api's key statement).
 */
export function senderAllowedOverSql(accountId: string | SQL, email: SQL, domain: SQL): SQL {
  return sql`(exists (select 1 from ${senderAddresses}
                       where ${senderAddresses.accountId} = ${accountId} and ${senderAddresses.email} = ${email}
                         and ${senderAddresses.confirmedAt} is not null)
              or exists (select 1 from ${senderDomains}
                          where ${senderDomains.accountId} = ${accountId} and ${senderDomains.domain} = ${domain}
                            and ${senderDomains.status} = 'verified' and ${senderDomains.suspendedAt} is null))`;
}

/**
 * THE sending rule every send path calls (campaign send, scheduled start, test send, compat /send-campaign,
 * transactional API): 403 `sender_not_verified` in pt-BR unless `fromEmail` is a confirmed address of the
 * account or an address at one of its verified, not suspended domains.
 */
export async function assertSenderAllowed(db: Db, accountId: string, fromEmail: string): Promise<void> {
  if (await isSenderAllowed(db, accountId, fromEmail)) return;
  throw new AppError(
    'sender_not_verified',
    `O remetente ${fromEmail.trim().toLowerCase()} não está verificado. Confirme o endereço ou verifique o domínio em Configurações → Remetentes e domínios.`,
    { field: 'fromEmail' },
  );
}

/** The campaign preview's alignment check for a From address. */
export async function senderAlignment(db: Db, accountId: string, fromEmail: string | null): Promise<SenderAlignment> {
  if (!fromEmail) return { fromEmail: null, allowed: false, dkimAligned: false, spfAligned: false, dmarcPass: false };
  const allowed = await isSenderAllowed(db, accountId, fromEmail);
  const domain = await findVerifiedDomain(db, accountId, domainOf(fromEmail));
  const dkimAligned = domain !== null;
  const spfAligned = domain?.returnPathVerified === 'yes';
  return { fromEmail, allowed, dkimAligned, spfAligned, dmarcPass: dkimAligned || spfAligned };
}

// ---------------------------------------------------------------------------------------------------------------
// Tracking hosts

/**
 * Whether `host` is the tracking host (`links.<domain>`) of some verified, not suspended sender domain whose
 * tracking CNAME was found at its last check: the on-demand TLS "ask" (a certificate is issued only for those).
 * Answers nothing about the account.
 */
export async function isVerifiedTrackingHost(db: Db, host: string): Promise<boolean> {
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  const prefix = `${TRACKING_LABEL}.`;
  if (!name.startsWith(prefix) || name.length > 253) return false;
  const domain = name.slice(prefix.length);
  const [row] = await db
    .select({ id: senderDomains.id })
    .from(senderDomains)
    .innerJoin(accountDirectory, eq(accountDirectory.id, senderDomains.accountId))
    .where(
      and(
        eq(senderDomains.domain, domain),
        eq(senderDomains.status, 'verified'),
        isNull(senderDomains.suspendedAt),
        eq(accountDirectory.status, 'active'),
        sql`${senderDomains.lastCheck} -> 'tracking' ->> 'status' = 'found'`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
