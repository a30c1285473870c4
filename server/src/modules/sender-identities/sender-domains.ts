import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { SenderDnsRecord, SenderDomainDto, SenderListDto } from '@carteiro/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { dkimDnsRecord } from '../sending/dkim/dkim-signer';
import {
  dkimName,
  ed25519Selector,
  mergeSpf,
  newSelector,
  type PlatformTargets,
  RETURN_PATH_LABEL,
  SPF_LOOKUP_LIMIT,
  TRACKING_LABEL,
} from './dns-records';
import { encryptSecret } from './key-encryption';
import { addressDto } from './sender-addresses';
import { type DomainRow, domainStatus, MAX_DOMAINS, type SenderIdentitySettings } from './sender-identities';
import { type DnsRecordCheck, senderAddresses, senderDomains } from './sender-identities.db';

/** Sender domains: a DKIM key pair each, the records to publish, and the account's list of senders. */

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
  if (existing) throw new AppError('conflict', ERROR_TEXT.senders.domainAdded);
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
  if (!row) throw new AppError('conflict', ERROR_TEXT.senders.domainAdded);
  return domainDto(row, settings);
}

export async function deleteSenderDomain(db: Db, accountId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(senderDomains)
    .where(and(eq(senderDomains.id, id), eq(senderDomains.accountId, accountId)))
    .returning({ id: senderDomains.id });
  if (deleted.length === 0) throw notFound('domain');
}

export async function findDomainRow(db: Db, accountId: string, id: string): Promise<DomainRow> {
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

export function domainDto(row: DomainRow, settings: PlatformTargets): SenderDomainDto {
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
