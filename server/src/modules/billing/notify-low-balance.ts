import { emailsPaidBy, formatBRL } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { accounts } from '../accounts/accounts.db';
import { authUsers } from '../auth/auth.db';
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
  // The owner's address lives in the auth module's users table; read-only here.
  const [owner] = await deps.db
    .select({ email: authUsers.email, name: authUsers.name, accountName: accounts.name, price: accounts.priceMillis })
    .from(accounts)
    .innerJoin(authUsers, eq(authUsers.id, accounts.ownerUserId))
    .where(eq(accounts.id, entry.accountId));
  if (!owner) return false;
  const balance = formatBRL(entry.balanceAfterMillis);
  const emails = emailsPaidBy(entry.balanceAfterMillis, owner.price).toLocaleString('pt-BR');
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
  // Outbound webhook (issue 13): once per crossing, like the e-mail.
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

/** How far back the sweep looks: the last SWEEP_SEQ_WINDOW ledger entries written within SWEEP_AGE. */
const SWEEP_SEQ_WINDOW = 5_000;
const SWEEP_AGE = '1 hour';

/**
 * Finds debits that took a balance below the threshold and were not announced yet, and warns their owners
 * (notifyLowBalanceIfCrossed, once per entry). This is how a crossing by a campaign reservation — written by the
 * sending module, in whichever process started the send — gets its e-mail; an operator debit is announced at
 * once by its route and is skipped here. Settlements never lower the balance (the release covers the charge),
 * so 'send' entries are not candidates; a crossing the balance has already recovered from (a top-up, a
 * release) is not announced. Looks only at recent entries (the last 5,000, within an hour) through the seq
 * index. Returns how many warnings were sent.
 */
export async function sweepLowBalanceCrossings(deps: LowBalanceDeps, logger?: Pick<Logger, 'warn'>): Promise<number> {
  const threshold = deps.thresholdMillis;
  if (threshold <= 0) return 0;
  const candidates = await queryRows<{ id: string }>(
    deps.db,
    sql`select e.id from ledger_entries e
         where e.seq > (select coalesce(max(seq), 0) from ledger_entries) - ${SWEEP_SEQ_WINDOW}
           and e.created_at > now() - ${SWEEP_AGE}::interval
           and e.amount_millis < 0 and e.kind <> 'send'
           and e.balance_after_millis < ${threshold}
           and e.balance_after_millis - e.amount_millis >= ${threshold}
           and not exists (select 1 from low_balance_alerts a where a.ledger_entry_id = e.id)
           and exists (select 1 from accounts ac where ac.id = e.account_id and ac.balance_millis < ${threshold})
         order by e.seq
         limit 100`,
  );
  let sent = 0;
  for (const { id } of candidates) {
    const [entry] = await deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, id));
    if (!entry) continue;
    try {
      if (await notifyLowBalanceIfCrossed(deps, entry)) sent++;
    } catch (error) {
      logger?.warn({ err: error, accountId: entry.accountId }, 'low-balance warning could not be sent');
    }
  }
  return sent;
}

/**
 * Runs sweepLowBalanceCrossings every `intervalMs` (never two at once) until stopped; stop() waits for a
 * sweep in progress.
 */
export function startLowBalanceWatcher(
  deps: LowBalanceDeps,
  options: { intervalMs: number; logger?: Pick<Logger, 'warn'> },
): { stop: () => Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepLowBalanceCrossings(deps, options.logger)
      .catch((error: unknown) => options.logger?.warn({ err: error }, 'low-balance sweep failed'))
      .finally(() => {
        running = null;
      });
  }, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
