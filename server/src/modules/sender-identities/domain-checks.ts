import type { SenderDomainDto } from '@carteiro/shared';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import type { DnsResolver } from '../../net/dns';
import {
  countSpfLookups,
  dkimName,
  dkimPublicKey,
  ed25519Selector,
  isSpf,
  mergeSpf,
  type PlatformTargets,
  RETURN_PATH_LABEL,
  TRACKING_LABEL,
} from './dns-records';
import { domainDto, findDomainRow } from './sender-domains';
import type { DomainRow, SenderIdentitySettings } from './sender-identities';
import { type DnsRecordCheck, type DomainCheckResult, senderDomains } from './sender-identities.db';

/** DNS checks of a sender domain through the one resolver: on demand and on the periodic recheck. */

function recordCheck(found: string[], matches: (value: string) => boolean): DnsRecordCheck {
  if (found.length === 0) return { status: 'missing', found };
  return { status: found.some(matches) ? 'found' : 'wrong', found };
}

/** Looks up every record of the domain through the one resolver; the DKIM (RSA) record decides "verified". */
export async function checkDomainDns(
  dns: DnsResolver,
  settings: PlatformTargets,
  row: Pick<DomainRow, 'domain' | 'selector' | 'dkimRsaRecord' | 'dkimEd25519Record'>,
): Promise<DomainCheckResult> {
  const { domain, selector } = row;
  const [dkimTxt, edTxt, rootTxt, dmarcTxt, returnPath, tracking] = await Promise.all([
    dns.txt(dkimName(selector, domain)),
    dns.txt(dkimName(ed25519Selector(selector), domain)),
    dns.txt(domain),
    dns.txt(`_dmarc.${domain}`),
    dns.cname(`${RETURN_PATH_LABEL}.${domain}`),
    dns.cname(`${TRACKING_LABEL}.${domain}`),
  ]);
  const spfRecords = rootTxt.filter(isSpf);
  const include = `include:${settings.spfInclude}`.toLowerCase();
  const spf = recordCheck(spfRecords, (r) => r.toLowerCase().split(/\s+/).includes(include));
  // Exactly one SPF record is valid (RFC 7208 §4.5): two are "wrong" whatever they say.
  if (spfRecords.length > 1) spf.status = 'wrong';
  const merged = spfRecords.length === 1 ? mergeSpf(spfRecords[0] as string, settings.spfInclude) : null;
  const lookups = merged ? await countSpfLookups(dns, merged) : null;
  const wantKey = (record: string) => (value: string) => dkimPublicKey(value) === dkimPublicKey(record);
  return {
    checkedAt: new Date().toISOString(),
    dkim: recordCheck(dkimTxt, wantKey(row.dkimRsaRecord)),
    dkimEd25519: recordCheck(edTxt, wantKey(row.dkimEd25519Record)),
    spf: { ...spf, lookups },
    dmarc: recordCheck(dmarcTxt, (r) => /^v=DMARC1\s*(;|$)/i.test(r.trim())),
    returnPath: recordCheck(returnPath, (r) => r === settings.bounceDomain.toLowerCase()),
    tracking: recordCheck(tracking, (r) => r === settings.trackingHost.toLowerCase()),
  };
}

export interface DomainCheckOutcome {
  domain: SenderDomainDto;
  /** The domain was verified and its DKIM record is gone or changed: it is now broken. */
  becameBroken: boolean;
}

/**
 * "Verificar agora" and the periodic re-check: checks the records and moves the status — DKIM found → verified;
 * a verified domain whose DKIM is gone → broken (sending from it is refused until the record is back).
 */
export async function checkSenderDomain(
  db: Db,
  dns: DnsResolver,
  settings: SenderIdentitySettings,
  accountId: string,
  id: string,
): Promise<DomainCheckOutcome> {
  const row = await findDomainRow(db, accountId, id);
  const check = await checkDomainDns(dns, settings, row);
  const now = new Date();
  const dkimOk = check.dkim.status === 'found';
  const status = dkimOk ? 'verified' : row.status === 'pending' ? 'pending' : 'broken';
  const [updated] = await db
    .update(senderDomains)
    .set({
      status,
      lastCheck: check,
      lastCheckedAt: now,
      ed25519Verified: check.dkimEd25519.status === 'found' ? 'yes' : 'no',
      returnPathVerified: check.returnPath.status === 'found' ? 'yes' : 'no',
      verifiedAt: dkimOk ? (row.verifiedAt ?? now) : row.verifiedAt,
      brokenAt: status === 'broken' ? (row.brokenAt ?? now) : null,
    })
    .where(eq(senderDomains.id, row.id))
    .returning();
  if (!updated) throw notFound('domain');
  return { domain: domainDto(updated, settings), becameBroken: row.status === 'verified' && status === 'broken' };
}

/**
 * The periodic re-check: every domain not checked for `intervalMinutes` (verified and broken first: they send).
 * Tells the account owner by e-mail when a verified domain breaks. Returns the domains checked.
 */
export async function recheckDueDomains(
  db: Db,
  dns: DnsResolver,
  settings: SenderIdentitySettings,
  options: {
    intervalMinutes: number;
    limit?: number;
    notify?: (accountId: string, domain: string) => Promise<void>;
    now?: Date;
  },
): Promise<number> {
  const now = options.now ?? new Date();
  const due = await db
    .select({ id: senderDomains.id, accountId: senderDomains.accountId })
    .from(senderDomains)
    .where(
      and(
        isNull(senderDomains.suspendedAt),
        or(
          isNull(senderDomains.lastCheckedAt),
          lt(senderDomains.lastCheckedAt, new Date(now.getTime() - options.intervalMinutes * 60_000)),
        ),
      ),
    )
    .orderBy(sql`${senderDomains.status} = 'pending'`, senderDomains.lastCheckedAt)
    .limit(options.limit ?? 100);
  for (const domain of due) {
    const outcome = await checkSenderDomain(db, dns, settings, domain.accountId, domain.id);
    if (outcome.becameBroken) await options.notify?.(domain.accountId, outcome.domain.domain);
  }
  return due.length;
}
