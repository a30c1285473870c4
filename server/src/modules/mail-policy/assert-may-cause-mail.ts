import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { findTeamEmails } from '../accounts/accounts.service';
import { assertAccountCanSend } from '../billing/account-status';
import { takeRateLimitQuota } from '../rate-limits/rate-limit';
import { assertSenderAllowed, isSenderAllowed } from '../sender-identities/sender-identities';

/**
 * What a sender can make Carteiro e-mail outside a campaign: a test of a campaign or of a library template, a
 * team invitation, the confirmation link of a new sender address. None of them is charged, so without this
 * policy they are an open relay from the platform's reputation (decision 0022).
 */
export type MailCause = 'campaign-test' | 'template-test' | 'invitation' | 'sender-confirmation';

export interface MailPolicyLimits {
  /** Messages (each recipient counts) one account may cause through these paths per hour. */
  perAccountPerHour: number;
  /** Test messages per day to addresses that are neither the team's nor the account's verified senders. */
  testOutsidersPerDay: number;
}

export function mailPolicyLimitsFrom(config: Config): MailPolicyLimits {
  return {
    perAccountPerHour: config.ACCOUNT_MAIL_QUOTA_PER_HOUR,
    testOutsidersPerDay: config.TEST_MAIL_OUTSIDERS_PER_DAY,
  };
}

export interface MailCauser {
  accountId: string;
  email: string;
  emailVerified: boolean;
}

const HOUR_SECONDS = 3600;
const DAY_SECONDS = 24 * HOUR_SECONDS;

const TESTS: ReadonlySet<MailCause> = new Set(['campaign-test', 'template-test']);

export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Confirme o seu e-mail antes de enviar testes ou convites: abra o link que enviamos para você (ou peça outro em Configurações → Conta).';

/**
 * `assertMayCauseMail` with the process's limits bound, as buildApp hands it to modules that sit below mail-policy
 * (accounts' invitations, sender-identities' confirmations).
 */
export type MayCauseMail = (
  db: Db,
  causer: MailCauser,
  mail: { kind: MailCause; from: string | null; recipients: string[] },
) => Promise<void>;

/**
 * THE rule for mail a signed-in sender causes outside a campaign; call it first, before anything is rendered
 * or written. In order: the account is active (403 account_suspended), the acting person's e-mail is verified
 * (403 email_not_verified), a test has a From that passes the campaign sending rule (`assertSenderAllowed`,
 * 403 sender_not_verified; 400 when there is none), and the account's quotas have room (429 with Retry-After):
 * every message counts against the hourly quota; test messages to anyone but the team and the account's own
 * verified senders count against the daily quota for outsiders too. Both quotas are taken in one transaction,
 * all or nothing, in the database, so they hold across processes and a refusal costs nothing.
 */
export async function assertMayCauseMail(
  db: Db,
  limits: MailPolicyLimits,
  causer: MailCauser,
  mail: { kind: MailCause; from: string | null; recipients: string[] },
): Promise<void> {
  await assertAccountCanSend(db, causer.accountId);
  if (!causer.emailVerified) throw new AppError('email_not_verified', EMAIL_NOT_VERIFIED_MESSAGE);
  const isTest = TESTS.has(mail.kind);
  if (isTest) {
    if (!mail.from) {
      throw new AppError(
        'sender_not_verified',
        mail.kind === 'campaign-test'
          ? 'Escolha o remetente da campanha (um endereço confirmado ou de um domínio verificado) antes de enviar um teste.'
          : 'Defina o remetente padrão da conta (um endereço confirmado ou de um domínio verificado) em Configurações → Remetentes e domínios antes de enviar um teste.',
        { field: 'fromEmail' },
      );
    }
    await assertSenderAllowed(db, causer.accountId, mail.from);
  }
  const recipients = [...new Set(mail.recipients.map((email) => email.trim().toLowerCase()))];
  const outsiders = isTest ? await outsidersOf(db, causer.accountId, recipients) : [];
  await db.transaction(async (tx) => {
    const hourly = await takeRateLimitQuota(
      tx,
      `mail-quota:${causer.accountId}`,
      recipients.length,
      limits.perAccountPerHour,
      HOUR_SECONDS,
    );
    if (!hourly.allowed) {
      throw quotaError(
        `Esta conta atingiu o limite de ${limits.perAccountPerHour} e-mails de teste, convites e confirmações por hora.`,
        hourly.retryAfterSeconds,
      );
    }
    const daily = await takeRateLimitQuota(
      tx,
      `mail-quota-outsiders:${causer.accountId}`,
      outsiders.length,
      limits.testOutsidersPerDay,
      DAY_SECONDS,
    );
    if (!daily.allowed) {
      throw quotaError(
        `Testes para endereços fora da equipe e dos remetentes verificados da conta são limitados a ${limits.testOutsidersPerDay} por dia (${outsiders.join(', ')}). Envie o teste para você ou para alguém da equipe.`,
        daily.retryAfterSeconds,
      );
    }
  });
}

/** The recipients that are neither someone of the account's team nor an address the account may send as. */
async function outsidersOf(db: Db, accountId: string, recipients: string[]): Promise<string[]> {
  const team = new Set(await findTeamEmails(db, accountId));
  const outsiders: string[] = [];
  for (const email of recipients) {
    if (team.has(email) || (await isSenderAllowed(db, accountId, email))) continue;
    outsiders.push(email);
  }
  return outsiders;
}

function quotaError(message: string, retryAfterSeconds: number): AppError {
  return new AppError('too_many_requests', `${message} Tente de novo ${inAWhile(retryAfterSeconds)}.`, {
    retryAfterSeconds,
  });
}

/** "em 1 minuto", "em 42 minutos", "em cerca de 5 horas". */
function inAWhile(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes === 1) return 'em 1 minuto';
  if (minutes <= 90) return `em ${minutes} minutos`;
  return `em cerca de ${Math.round(minutes / 60)} horas`;
}
