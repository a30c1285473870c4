import { emailsPaidBy, formatBRL } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { PeriodicJob } from '../../jobs/periodic-jobs';
import type { Mailer } from '../../mail/mailer';
import { balanceBelowSql } from '../accounts/account-balance';
import { findAccountOwner } from '../accounts/account-directory';
import { emitWebhookEvent } from '../webhooks/emit-event';
import { ledgerEntries, lowBalanceAlerts } from './billing.db';
import type { LedgerEntry } from './ledger';

/** True when this entry took the balance from at or above the threshold to below it (a crossing, not a stay). */
export function crossesLowBalance(
  entry: Pick<LedgerEntry, 'amountMillis' | 'balanceAfterMillis'>,
  thresholdMillis: number,
) {
  const before = entry.balanceAfterMillis - entry.amountMillis;
  return thresholdMillis > 0 && before >= thresholdMillis && entry.balanceAfterMillis < thresholdMillis;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * E-mails the account owner once when `entry` crossed the low-balance threshold: the entry is claimed in
 * low_balance_alerts before sending, so two processes never both send it; when the e-mail fails the claim is
 * released (and the error thrown), so the next sweep tries again. Returns whether a warning was sent. Call after
 * a debit commits.
 */
export async function notifyLowBalanceIfCrossed(
  deps: { db: Db; mailer: Mailer; thresholdMillis: number; publicUrl: string },
  entry: LedgerEntry,
): Promise<boolean> {
  if (!crossesLowBalance(entry, deps.thresholdMillis)) return false;
  const inserted = await deps.db
    .insert(lowBalanceAlerts)
    .values({ ledgerEntryId: entry.id, accountId: entry.accountId, thresholdMillis: deps.thresholdMillis })
    .onConflictDoNothing()
    .returning();
  if (inserted.length === 0) return false;
  const owner = await findAccountOwner(deps.db, entry.accountId);
  if (!owner) return false;
  const balance = formatBRL(entry.balanceAfterMillis);
  const emails = emailsPaidBy(entry.balanceAfterMillis, owner.priceMillis).toLocaleString('pt-BR');
  const url = `${deps.publicUrl}/dashboard/my-balance`;
  try {
    await deps.mailer.send({
      to: owner.email,
      subject: `Seu saldo no Carteiro está baixo: ${balance}`,
      text: `Olá, ${owner.name}.\n\nO saldo da conta "${owner.accountName}" ficou abaixo de ${formatBRL(deps.thresholdMillis)}: agora é ${balance} (paga ${emails} e-mails).\n\nAdicione créditos por Pix em ${url} para não interromper seus envios.\n\nEquipe Carteiro`,
      html: `<p>Olá, ${escapeHtml(owner.name)}.</p><p>O saldo da conta <strong>${escapeHtml(owner.accountName)}</strong> ficou abaixo de ${escapeHtml(formatBRL(deps.thresholdMillis))}: agora é <strong>${escapeHtml(balance)}</strong> (paga ${escapeHtml(emails)} e-mails).</p><p><a href="${escapeHtml(url)}">Adicione créditos por Pix</a> para não interromper seus envios.</p><p>Equipe Carteiro</p>`,
    });
  } catch (error) {
    await deps.db.delete(lowBalanceAlerts).where(eq(lowBalanceAlerts.ledgerEntryId, entry.id));
    throw error;
  }
  // Outbound webhook: once per crossing, like the e-mail.
  await emitWebhookEvent(deps.db, entry.accountId, 'balance.low', {
    balanceMillis: entry.balanceAfterMillis,
    thresholdMillis: deps.thresholdMillis,
  });
  return true;
}

export interface LowBalanceDeps {
  db: Db;
  mailer: Mailer;
  thresholdMillis: number;
  publicUrl: string;
}

/** Where a sweep starts when it has no cursor yet (a process starting): the last SWEEP_SEQ_WINDOW entries. */
const SWEEP_SEQ_WINDOW = 5_000;
/**
 * Each sweep also reads again this many entries before its cursor: ledger sequence numbers are taken when an entry
 * is inserted, so an entry of another account can commit after a higher one the previous sweep already saw.
 */
const SWEEP_SEQ_OVERLAP = 1_000;
/** A crossing older than this is not announced any more (a process that was down for a day stays quiet). */
const SWEEP_AGE = '1 hour';
/** Warnings sent per sweep at most; the cursor stops at the last one, so the next sweep goes on from there. */
const SWEEP_BATCH = 100;

/** The watcher's place in the ledger between sweeps (null: not started). */
export interface LowBalanceCursor {
  afterSeq: number | null;
}

/**
 * Finds debits that took a balance below the threshold and were not announced yet, and warns their owners
 * (notifyLowBalanceIfCrossed, once per entry): the one low-balance watcher, whatever wrote the debit — a campaign
 * reservation, a transactional or API batch send, an automation step, an operator debit (announced at once by its
 * route, so already claimed here). A campaign's settlement is the one debit that never lowers the balance (its
 * 'send' follows the 'release' of the whole reservation in the same transaction), so it is not a crossing; neither
 * is one the balance has already recovered from (a top-up, a release, a refund): only the account's latest crossing
 is announced, and only while the balance is still below the line. Reads the entries after `cursor` (advanced
 * here; without one, the last 5,000) through the seq index, within the last hour. A warning that fails (relay down)
 * keeps the cursor before its entry, so the next sweep tries again. Returns how many warnings were sent.
 */
export async function sweepLowBalanceCrossings(
  deps: LowBalanceDeps,
  logger?: Pick<Logger, 'warn'>,
  cursor: LowBalanceCursor = { afterSeq: null },
): Promise<number> {
  const threshold = deps.thresholdMillis;
  if (threshold <= 0) return 0;
  const [last] = await queryRows<{ seq: number | string }>(
    deps.db,
    sql`select coalesce(max(seq), 0) as seq from ledger_entries`,
  );
  const upTo = Number(last?.seq ?? 0);
  const from = cursor.afterSeq === null ? upTo - SWEEP_SEQ_WINDOW : cursor.afterSeq - SWEEP_SEQ_OVERLAP;
  // A debit of entry `x` that crossed the line downwards, and is not a campaign's settlement.
  const crossing = (x: string) =>
    sql`${sql.raw(x)}.amount_millis < 0
        and ${sql.raw(x)}.balance_after_millis < ${threshold}
        and ${sql.raw(x)}.balance_after_millis - ${sql.raw(x)}.amount_millis >= ${threshold}
        and not (${sql.raw(x)}.kind = 'send' and ${sql.raw(x)}.campaign_id is not null
                 and exists (select 1 from ledger_entries s
                              where s.campaign_id = ${sql.raw(x)}.campaign_id and s.kind = 'release'))`;
  const candidates = await queryRows<{ id: string; seq: number | string }>(
    deps.db,
    sql`select e.id, e.seq from ledger_entries e
         where e.seq > ${from} and e.seq <= ${upTo}
           and e.created_at > now() - ${SWEEP_AGE}::interval
           and ${crossing('e')}
           -- Only the account's latest crossing: an earlier one the balance recovered from (a refund, a top-up)
           -- before this sweep saw it is not announced beside the next one (one notice per time the balance is low).
           and not exists (select 1 from ledger_entries n
                            where n.account_id = e.account_id and n.seq > e.seq and ${crossing('n')})
           and not exists (select 1 from low_balance_alerts a where a.ledger_entry_id = e.id)
           and ${balanceBelowSql(sql`e.account_id`, threshold)}
         order by e.seq
         limit ${SWEEP_BATCH}`,
  );
  let sent = 0;
  let failedAt: number | null = null;
  for (const candidate of candidates) {
    const [entry] = await deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, candidate.id));
    if (!entry) continue;
    try {
      if (await notifyLowBalanceIfCrossed(deps, entry)) sent++;
    } catch (error) {
      failedAt ??= Number(candidate.seq);
      logger?.warn({ err: error, accountId: entry.accountId }, 'low-balance warning could not be sent');
    }
  }
  const lastCandidate = candidates.at(-1);
  cursor.afterSeq =
    failedAt !== null
      ? failedAt - 1
      : candidates.length === SWEEP_BATCH && lastCandidate
        ? Number(lastCandidate.seq)
        : upTo;
  return sent;
}

/**
 * The low-balance sweep as a periodic job: every debit of any kind, written by any process, is looked at once
 * per process after its cursor; the alert row makes the e-mail and the webhook once per crossing.
 */
export function lowBalanceJob(
  deps: LowBalanceDeps,
  options: { everyMs: number; logger?: Pick<Logger, 'warn'> },
): PeriodicJob {
  const cursor: LowBalanceCursor = { afterSeq: null };
  return {
    name: 'billing.low-balance',
    everyMs: options.everyMs,
    run: () => sweepLowBalanceCrossings(deps, options.logger, cursor),
  };
}
