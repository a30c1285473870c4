import type { Db } from '../../db/database';
import type { PeriodicJob } from '../../jobs/periodic-jobs';
import type { Mailer } from '../../mail/mailer';
import type { DnsResolver } from '../../net/dns';
import { findAccountOwner } from '../accounts/account-directory';
import { recheckDueDomains } from './domain-checks';
import type { SenderIdentitySettings } from './sender-identities';

/** Tells the account owner that a verified domain's DKIM record is gone (the settings screen also flags it). */
export async function notifyDomainBroken(
  db: Db,
  mailer: Mailer | null,
  settings: SenderIdentitySettings,
  accountId: string,
  domain: string,
): Promise<void> {
  if (!mailer) return;
  const owner = await findAccountOwner(db, accountId);
  if (!owner) return;
  const link = `${settings.publicUrl}/dashboard/settings?aba=remetentes`;
  await mailer.send({
    to: owner.email,
    subject: `Atenção: o domínio ${domain} deixou de estar verificado`,
    text:
      `O registro DKIM do domínio ${domain} (conta "${owner.accountName}") não foi encontrado no DNS na última verificação.\n` +
      'Enquanto ele não voltar, campanhas com remetente neste domínio não podem ser enviadas.\n\n' +
      `Confira os registros em ${link} e clique em "Verificar agora".`,
    html:
      `<p>O registro DKIM do domínio <strong>${domain}</strong> não foi encontrado no DNS na última verificação.</p>` +
      '<p>Enquanto ele não voltar, campanhas com remetente neste domínio não podem ser enviadas.</p>' +
      `<p><a href="${link}">Confira os registros</a> e clique em "Verificar agora".</p>`,
  });
}

/**
 * The worker's periodic re-check of sender domains (every minute, each domain every SENDER_DOMAIN_RECHECK_MINUTES):
 * a domain is due by its checked-at time in the table, so several workers re-check it about once.
 */
export function domainRecheckJob(options: {
  db: Db;
  dns: DnsResolver;
  mailer: Mailer | null;
  settings: SenderIdentitySettings;
  intervalMinutes: number;
}): PeriodicJob {
  return {
    name: 'sender-domains.recheck',
    everyMs: 60_000,
    run: (now) =>
      recheckDueDomains(options.db, options.dns, options.settings, {
        intervalMinutes: options.intervalMinutes,
        now,
        notify: (accountId, domain) =>
          notifyDomainBroken(options.db, options.mailer, options.settings, accountId, domain),
      }),
  };
}
