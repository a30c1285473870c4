import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type {
  AdminSenderDomainRow,
  SenderAddressDto,
  SenderAlignment,
  SenderDnsRecord,
  SenderDomainDto,
  SenderDomainStatus,
  SenderListDto,
} from '@carteiro/shared';
import { and, eq, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { notFound } from '../../http/not-found';
import type { Mailer } from '../../mail/mailer';
import type { DnsResolver } from '../../net/dns';
import type { Tx } from '../accounts/account-balance';
import { accountDirectory } from '../accounts/account-directory';
import { findAccount } from '../accounts/accounts.service';
import { type OperatorRef, recordAdminAction } from '../billing/record-admin-action';
import { dkimDnsRecord } from '../sending/dkim/dkim-signer';
import {
  countSpfLookups,
  dkimName,
  dkimPublicKey,
  ed25519Selector,
  isSpf,
  mergeSpf,
  newSelector,
  type PlatformTargets,
  RETURN_PATH_LABEL,
  SPF_LOOKUP_LIMIT,
  TRACKING_LABEL,
} from './dns-records';
import { encryptSecret } from './key-encryption';
import { type DnsRecordCheck, type DomainCheckResult, senderAddresses, senderDomains } from './sender-identities.db';

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

const MAX_ADDRESSES = 50;
const MAX_DOMAINS = 20;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

type DomainRow = typeof senderDomains.$inferSelect;

function domainStatus(row: DomainRow): SenderDomainStatus {
  return row.suspendedAt ? 'suspended' : row.status;
}

// ---------------------------------------------------------------------------------------------------------------
// Addresses

/**
 * Adds (or re-sends the link of) a sender address and mails a single-use confirmation link to it. The adding
 * user's own login e-mail, once verified, is confirmed at once: the sign-up link already proved they read that
 * mailbox, and a second link to it proves nothing more.
 */
export async function addSenderAddress(
  db: Db,
  mailer: Mailer,
  settings: SenderIdentitySettings,
  accountId: string,
  email: string,
  verifiedLoginEmail: string | null = null,
): Promise<SenderAddressDto> {
  const [existing] = await db
    .select()
    .from(senderAddresses)
    .where(and(eq(senderAddresses.accountId, accountId), eq(senderAddresses.email, email)));
  if (existing?.confirmedAt) throw new AppError('conflict', 'Este endereço já está confirmado.');
  if (verifiedLoginEmail !== null && verifiedLoginEmail.trim().toLowerCase() === email) {
    await assertAddressRoom(db, accountId, existing !== undefined);
    const [row] = await db
      .insert(senderAddresses)
      .values({ accountId, email, confirmedAt: new Date() })
      .onConflictDoUpdate({
        target: [senderAddresses.accountId, senderAddresses.email],
        set: { confirmedAt: new Date(), tokenHash: null, tokenExpiresAt: null },
      })
      .returning();
    if (!row) throw new Error('sender address upsert returned nothing');
    return addressDto(row);
  }
  // One link a minute per address (the row is the rate limit): adding again re-sends, never floods a mailbox.
  const issuedAt = existing?.tokenExpiresAt ? existing.tokenExpiresAt.getTime() - settings.confirmHours * 3600_000 : 0;
  if (Date.now() - issuedAt < 60_000) {
    throw new AppError(
      'too_many_requests',
      'Já enviamos um link para este endereço há menos de um minuto. Confira a caixa de entrada.',
    );
  }
  await assertAddressRoom(db, accountId, existing !== undefined);
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + settings.confirmHours * 3600_000);
  const [row] = await db
    .insert(senderAddresses)
    .values({ accountId, email, tokenHash: sha256(token), tokenExpiresAt: expiresAt })
    .onConflictDoUpdate({
      target: [senderAddresses.accountId, senderAddresses.email],
      set: { tokenHash: sha256(token), tokenExpiresAt: expiresAt },
    })
    .returning();
  if (!row) throw new Error('sender address upsert returned nothing');
  const account = await findAccount(db, accountId);
  const link = `${settings.publicUrl}/confirm-sender/${token}`;
  const accountName = account?.name ?? 'uma conta';
  await mailer.send({
    to: email,
    subject: 'Confirme este endereço como remetente no Carteiro',
    text:
      `A conta "${accountName}" quer enviar e-mails em nome de ${email} pelo Carteiro.\n\n` +
      `Se foi você, confirme abrindo o link abaixo (vale por ${settings.confirmHours} horas e só pode ser usado uma vez):\n${link}\n\n` +
      'Se não foi você, ignore esta mensagem: nada será enviado em seu nome.',
    html:
      `<p>A conta <strong>${escapeHtml(accountName)}</strong> quer enviar e-mails em nome de <strong>${escapeHtml(email)}</strong> pelo Carteiro.</p>` +
      `<p>Se foi você, <a href="${link}">confirme este endereço</a> (o link vale por ${settings.confirmHours} horas e só pode ser usado uma vez).</p>` +
      '<p>Se não foi você, ignore esta mensagem: nada será enviado em seu nome.</p>',
  });
  return addressDto(row);
}

/** A new address must fit under the account's limit (an existing row is re-used, not counted again). */
async function assertAddressRoom(db: Db, accountId: string, exists: boolean): Promise<void> {
  if (exists) return;
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(senderAddresses)
    .where(eq(senderAddresses.accountId, accountId));
  if (Number(n) >= MAX_ADDRESSES) {
    throw new AppError('validation_failed', `No máximo ${MAX_ADDRESSES} endereços de remetente por conta.`);
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Confirms the address a link names: single use (the token is cleared), refused once expired. */
export async function confirmSenderAddress(db: Db, token: string): Promise<{ email: string }> {
  const [row] = await db
    .select()
    .from(senderAddresses)
    .where(eq(senderAddresses.tokenHash, sha256(token)));
  if (!row) throw new AppError('invalid-action-code', 'Este link de confirmação é inválido ou já foi usado.');
  if (!row.tokenExpiresAt || row.tokenExpiresAt.getTime() < Date.now()) {
    throw new AppError(
      'expired-action-code',
      'Este link de confirmação expirou. Peça um novo em Configurações → Remetentes e domínios.',
    );
  }
  const [confirmed] = await db
    .update(senderAddresses)
    .set({ confirmedAt: new Date(), tokenHash: null, tokenExpiresAt: null })
    .where(and(eq(senderAddresses.id, row.id), eq(senderAddresses.tokenHash, sha256(token))))
    .returning();
  if (!confirmed) throw new AppError('invalid-action-code', 'Este link de confirmação é inválido ou já foi usado.');
  return { email: confirmed.email };
}

export async function deleteSenderAddress(db: Db, accountId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(senderAddresses)
    .where(and(eq(senderAddresses.id, id), eq(senderAddresses.accountId, accountId)))
    .returning({ id: senderAddresses.id });
  if (deleted.length === 0) throw notFound('sender');
}

function addressDto(row: typeof senderAddresses.$inferSelect): SenderAddressDto {
  return {
    id: row.id,
    email: row.email,
    status: row.confirmedAt ? 'confirmed' : 'pending',
    createdAt: row.createdAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Domains

/** Adds a domain with a fresh DKIM key pair (RSA-2048 and Ed25519), private halves encrypted at rest. */
export async function addSenderDomain(
  db: Db,
  settings: SenderIdentitySettings,
  accountId: string,
  domain: string,
): Promise<SenderDomainDto> {
  const [existing] = await db
    .select({ id: senderDomains.id })
    .from(senderDomains)
    .where(and(eq(senderDomains.accountId, accountId), eq(senderDomains.domain, domain)));
  if (existing) throw new AppError('conflict', 'Este domínio já foi adicionado.');
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(senderDomains)
    .where(eq(senderDomains.accountId, accountId));
  if (Number(n) >= MAX_DOMAINS) throw new AppError('validation_failed', `No máximo ${MAX_DOMAINS} domínios por conta.`);
  const pem = { type: 'pkcs8', format: 'pem' } as const;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export(pem) as string;
  const ed = generateKeyPairSync('ed25519').privateKey.export(pem) as string;
  const selector = newSelector(randomBytes(4).toString('hex'));
  const [row] = await db
    .insert(senderDomains)
    .values({
      accountId,
      domain,
      selector,
      dkimRsaPrivateEnc: encryptSecret(settings.secret, rsa),
      dkimRsaRecord: dkimDnsRecord(rsa),
      dkimEd25519PrivateEnc: encryptSecret(settings.secret, ed),
      dkimEd25519Record: dkimDnsRecord(ed),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError('conflict', 'Este domínio já foi adicionado.');
  return domainDto(row, settings);
}

export async function deleteSenderDomain(db: Db, accountId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(senderDomains)
    .where(and(eq(senderDomains.id, id), eq(senderDomains.accountId, accountId)))
    .returning({ id: senderDomains.id });
  if (deleted.length === 0) throw notFound('domain');
}

async function findDomainRow(db: Db, accountId: string, id: string): Promise<DomainRow> {
  const [row] = await db
    .select()
    .from(senderDomains)
    .where(and(eq(senderDomains.id, id), eq(senderDomains.accountId, accountId)));
  if (!row) throw notFound('domain');
  return row;
}

export async function findSenderDomain(
  db: Db,
  settings: SenderIdentitySettings,
  accountId: string,
  id: string,
): Promise<SenderDomainDto> {
  return domainDto(await findDomainRow(db, accountId, id), settings);
}

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
  options: { intervalMinutes: number; limit?: number; notify?: (accountId: string, domain: string) => Promise<void> },
): Promise<number> {
  const due = await db
    .select({ id: senderDomains.id, accountId: senderDomains.accountId })
    .from(senderDomains)
    .where(
      and(
        isNull(senderDomains.suspendedAt),
        or(
          isNull(senderDomains.lastCheckedAt),
          lt(senderDomains.lastCheckedAt, new Date(Date.now() - options.intervalMinutes * 60_000)),
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

/** Every record the sender publishes for `row`, with the last check's state and pt-BR notes. */
export function domainRecords(row: DomainRow, settings: PlatformTargets): SenderDnsRecord[] {
  const check = row.lastCheck;
  const state = (c: DnsRecordCheck | undefined) => ({
    status: c?.status ?? ('unchecked' as const),
    found: c?.found ?? [],
  });
  const existingSpf = check?.spf.found.length === 1 ? (check.spf.found[0] as string) : null;
  const spfValue = existingSpf
    ? mergeSpf(existingSpf, settings.spfInclude)
    : `v=spf1 include:${settings.spfInclude} ~all`;
  const lookups = check?.spf.lookups ?? null;
  const spfWarning =
    (check?.spf.found.length ?? 0) > 1
      ? 'Há mais de um registro SPF neste domínio: junte-os em um só, senão o SPF falha para todos.'
      : lookups !== null && lookups > SPF_LOOKUP_LIMIT
        ? `Com o Carteiro, o SPF deste domínio faria ${lookups} consultas DNS — o limite é ${SPF_LOOKUP_LIMIT}. Remova includes que não usa mais, senão o SPF falha.`
        : null;
  return [
    {
      kind: 'dkim',
      type: 'TXT',
      name: dkimName(row.selector, row.domain),
      value: row.dkimRsaRecord,
      required: true,
      ...state(check?.dkim),
      note: `Chave DKIM (RSA-2048): é ela que verifica o domínio e assina suas mensagens com d=${row.domain}.`,
      warning: null,
    },
    {
      kind: 'dkim_ed25519',
      type: 'TXT',
      name: dkimName(ed25519Selector(row.selector), row.domain),
      value: row.dkimEd25519Record,
      required: false,
      ...state(check?.dkimEd25519),
      note: 'Segunda assinatura (Ed25519), mais moderna. Opcional, recomendada.',
      warning: null,
    },
    {
      kind: 'spf',
      type: 'TXT',
      name: row.domain,
      value: spfValue,
      required: false,
      ...state(check?.spf),
      note:
        check?.spf.status === 'found'
          ? 'O SPF do seu domínio já inclui o Carteiro.'
          : existingSpf
            ? 'Seu domínio já tem um registro SPF: substitua-o por este, que é o mesmo com o Carteiro incluído (um domínio só pode ter um SPF).'
            : 'Autoriza o Carteiro a enviar pelo seu domínio.',
      warning: spfWarning,
    },
    {
      kind: 'dmarc',
      type: 'TXT',
      name: `_dmarc.${row.domain}`,
      value:
        check?.dmarc.status === 'found'
          ? (check.dmarc.found[0] as string)
          : `v=DMARC1; p=none; rua=mailto:dmarc@${row.domain}`,
      required: false,
      ...state(check?.dmarc),
      note:
        check?.dmarc.status === 'found'
          ? 'Seu domínio já publica uma política DMARC: mantenha-a.'
          : 'Gmail e Yahoo exigem DMARC para envio em massa. Comece com p=none (só monitora); quando os relatórios mostrarem tudo alinhado, passe para p=quarantine e depois p=reject.',
      warning: null,
    },
    {
      kind: 'return_path',
      type: 'CNAME',
      name: `${RETURN_PATH_LABEL}.${row.domain}`,
      value: settings.bounceDomain,
      required: false,
      ...state(check?.returnPath),
      note: 'Opcional: domínio de retorno (bounces) próprio, para o SPF também ficar alinhado com o seu domínio.',
      warning: null,
    },
    {
      kind: 'tracking',
      type: 'CNAME',
      name: `${TRACKING_LABEL}.${row.domain}`,
      value: settings.trackingHost,
      required: false,
      ...state(check?.tracking),
      note:
        check?.tracking?.status === 'found' && row.status === 'verified'
          ? `Os links, o pixel de abertura e o descadastro das mensagens enviadas de ${row.domain} usam ${TRACKING_LABEL}.${row.domain}.`
          : `Opcional: domínio de rastreamento próprio — os links, o pixel de abertura e o descadastro das suas mensagens passam a usar ${TRACKING_LABEL}.${row.domain} em vez do endereço do Carteiro.`,
      warning: null,
    },
  ];
}

function domainDto(row: DomainRow, settings: PlatformTargets): SenderDomainDto {
  return {
    id: row.id,
    domain: row.domain,
    status: domainStatus(row),
    returnPathVerified: row.returnPathVerified === 'yes',
    records: domainRecords(row, settings),
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Settings → Remetentes e domínios: the account's addresses and domains, and what From it may use now. */
export async function listSenders(db: Db, settings: PlatformTargets, accountId: string): Promise<SenderListDto> {
  const [addressRows, domainRows] = await Promise.all([
    db.select().from(senderAddresses).where(eq(senderAddresses.accountId, accountId)).orderBy(senderAddresses.email),
    db.select().from(senderDomains).where(eq(senderDomains.accountId, accountId)).orderBy(senderDomains.domain),
  ]);
  const domains = domainRows.map((row) => domainDto(row, settings));
  return {
    addresses: addressRows.map(addressDto),
    domains,
    allowed: {
      addresses: addressRows.filter((a) => a.confirmedAt).map((a) => a.email),
      domains: domains.filter((d) => d.status === 'verified').map((d) => d.domain),
    },
  };
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

/**
 * `isSenderAllowed` as a boolean SQL expression, for a hot path that folds this check into a statement of its own
 * (the transactional send reads the account, its senders and its suppressions in one round trip). Same rule,
 * same tables: a confirmed address of the account, or any address at a verified, not suspended domain of it.
 */
export function senderAllowedSql(accountId: string, fromEmail: string): SQL {
  const email = fromEmail.trim().toLowerCase();
  return sql`(exists (select 1 from ${senderAddresses}
                       where ${senderAddresses.accountId} = ${accountId} and ${senderAddresses.email} = ${email}
                         and ${senderAddresses.confirmedAt} is not null)
              or exists (select 1 from ${senderDomains}
                          where ${senderDomains.accountId} = ${accountId} and ${senderDomains.domain} = ${domainOf(email)}
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
// Operator

export async function listDomainsForOperator(db: Db, limit = 500): Promise<AdminSenderDomainRow[]> {
  const rows = await db
    .select({ domain: senderDomains, accountName: accountDirectory.name })
    .from(senderDomains)
    .innerJoin(accountDirectory, eq(accountDirectory.id, senderDomains.accountId))
    .orderBy(accountDirectory.name, senderDomains.domain)
    .limit(limit);
  return rows.map(({ domain, accountName }) => ({
    id: domain.id,
    accountId: domain.accountId,
    accountName,
    domain: domain.domain,
    status: domainStatus(domain),
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    suspendedReason: domain.suspendedReason,
  }));
}

/** Suspends (or lifts the suspension of) a sender domain; recorded in the operator audit log. */
export async function setDomainSuspended(
  db: Db,
  operator: OperatorRef,
  id: string,
  suspended: { reason: string } | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(senderDomains)
      .set({ suspendedAt: suspended ? new Date() : null, suspendedReason: suspended?.reason ?? null })
      .where(eq(senderDomains.id, id))
      .returning();
    if (!row) throw notFound('domain');
    await recordAdminAction(tx as unknown as Tx, {
      operator,
      action: suspended ? 'sender_domain.suspend' : 'sender_domain.unsuspend',
      accountId: row.accountId,
      targetId: row.id,
      reason: suspended?.reason ?? null,
      details: { domain: row.domain },
    });
  });
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
