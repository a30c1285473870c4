import { formatBRL, SKIP_REASON_LABELS } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { asDb, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { appendLedgerEntry } from '../billing/ledger';
import { cancelScheduledCtes } from '../sending/message-queue';
import { transactionalStreamId } from './send-transactional';

/**
 * Cancels a scheduled transactional message (`sendAt`) of the account, with its cc/bcc copies, while its engine
 * batch still waits for its time: the rows are skipped (`message_cancelled`) by the queue and what they were
 * charged goes back to the balance on the ledger, in one transaction. A message that is not scheduled any more
 * (due, claimed, sent, cancelled) or was never scheduled: 409 `message_not_scheduled`. `id` may be the message or
 * one of its copies: the whole message is cancelled. Returns how many rows were cancelled.
 */
export async function cancelScheduledMessage(db: Db, accountId: string, id: string): Promise<number> {
  const streamId = await transactionalStreamId(db, accountId);
  return db.transaction(async (tx) => {
    const t = asDb(tx);
    // The message and its copies: the `to` row and every row whose copy_of is it.
    const ids = sql`select c.message_id as id from transactional_messages c
                     where c.account_id = ${accountId}::uuid
                       and coalesce(c.copy_of, c.message_id) = (
                         select coalesce(r.copy_of, r.message_id) from transactional_messages r
                          where r.message_id = ${id}::bigint and r.account_id = ${accountId}::uuid
                            and r.send_at is not null)`;
    const [row] = await queryRows<{ ids: string | null; refund: number | string; charged: number | string }>(
      t,
      sql`with ${cancelScheduledCtes({
        streamId,
        ids,
        reason: 'message_cancelled',
        response: `não enviado: ${SKIP_REASON_LABELS.message_cancelled.toLowerCase()}`,
      })},
        -- The lookup's timeline dates the cancellation (the engine records no time for a skipped row).
        stamped as (
          update transactional_messages tc set cancelled_at = now()
           where tc.message_id in (select id from cancelled)
          returning 1),
        -- A test key's scheduled message has no batch (ADR 0035): cancelled by its date alone, until its time.
        sandbox as (
          update transactional_messages ts set cancelled_at = now()
            from messages sm
           where sm.id = ts.message_id and ts.message_id in (${ids}) and sm.skip_reason = 'sandbox'
             and ts.send_at > now() and ts.cancelled_at is null and ts.sandbox_notified_at is null
          returning ts.message_id as id)
        select concat_ws(',', (select string_agg(id::text, ',') from sandbox), string_agg(c.id::text, ',')) as ids,
               coalesce(sum(tm.cost_millis), 0) as refund,
               count(*) filter (where tm.cost_millis > 0) as charged
          from cancelled c join transactional_messages tm on tm.message_id = c.id`,
    );
    const count = row?.ids ? row.ids.split(',').filter(Boolean).length : 0;
    if (count === 0) {
      throw new AppError(
        'message_not_scheduled',
        'Esta mensagem não está programada (já saiu, está saindo, foi cancelada ou não tinha sendAt): não dá para cancelar.',
      );
    }
    const refund = Number(row?.refund ?? 0);
    if (refund > 0) {
      const charged = Number(row?.charged ?? 0);
      const entry = await appendLedgerEntry(t, {
        accountId,
        amountMillis: refund,
        kind: 'refund',
        emailCount: charged,
        description: `Estorno de envio transacional cancelado: ${charged} ${charged === 1 ? 'e-mail' : 'e-mails'} (${formatBRL(refund)})`,
      });
      if (!entry) throw new Error('refund could not be applied');
    }
    return count;
  });
}
