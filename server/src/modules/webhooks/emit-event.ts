import { randomBytes } from 'node:crypto';
import type { AnyWebhookEventType, WebhookEventData, WebhookEventType } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';

/** A new event id (`evt_` + 32 hex): the `id` of the payload and the `webhook-id` header of every attempt. */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('hex')}`;
}

/** SQL that builds an event id in the database, for events written by set-based statements. */
const SQL_EVENT_ID = sql`'evt_' || replace(gen_random_uuid()::text, '-', '')`;

/** True in SQL when the account has an enabled endpoint wanting `type` (the outbox stays empty otherwise). */
function subscribed(accountIdSql: SQL, type: AnyWebhookEventType): SQL {
  return sql`exists (select 1 from webhook_endpoints e
                      where e.account_id = ${accountIdSql} and e.enabled and ${type} = any(e.event_types))`;
}

type Executor = Pick<Db, 'execute'>;

/**
 * Writes one event to the outbox when the account has an enabled endpoint subscribed to its type: a single
 * INSERT … SELECT (nothing written otherwise). Pass the caller's transaction to make the event part of it.
 * Never throws into the caller's flow for lack of endpoints; a database error does propagate.
 */
export async function emitWebhookEvent<T extends WebhookEventType>(
  db: Executor,
  accountId: string,
  type: T,
  data: WebhookEventData<T>,
  occurredAt: Date = new Date(),
): Promise<void> {
  const id = newEventId();
  await db.execute(
    sql`insert into webhook_events (id, account_id, type, payload)
        select ${id}, a.id, ${type},
               jsonb_build_object('id', ${id}::text, 'type', ${type}::text, 'timestamp', ${occurredAt.toISOString()}::text,
                                  'account', jsonb_build_object('id', a.id, 'uuid', a.uuid),
                                  'data', ${JSON.stringify(data)}::jsonb)
          from accounts a
         where a.id = ${accountId} and ${subscribed(sql`a.id`, type)}`,
  );
}

/**
 * A CTE for the sending engine's outcome statement (campaign-sender.ts `record`): one `message.delivered`
 * event per message of `v` (the outcomes) that the statement marks sent, in the same statement — atomic with
 * the outcome, and nothing but an EXISTS probe when no endpoint wants the event. Expects the statement's CTEs
 * `v(id, status, …)` and `held` (the batch still held by this worker).
 */
export function messageDeliveredOutboxCte(): SQL {
  return sql`webhook_delivered_events as (
            insert into webhook_events (id, account_id, type, payload)
            select ev.id, m.account_id, 'message.delivered',
                   jsonb_build_object('id', ev.id, 'type', 'message.delivered',
                                      'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                      'account', jsonb_build_object('id', a.id, 'uuid', a.uuid),
                                      'data', jsonb_build_object('messageId', m.id::text, 'campaignId', m.campaign_id,
                                                                 'contactId', m.contact_id, 'email', m.email,
                                                                 'sentAt', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
              from v join messages m on m.id = v.id join accounts a on a.id = m.account_id
                   cross join held
                   cross join lateral (select ${SQL_EVENT_ID} as id) ev
             where v.status = 'sent' and m.status = 'queued'
               and ${subscribed(sql`m.account_id`, 'message.delivered')}
            returning 1)`;
}

/** Inserts a test event addressed to one endpoint only ("enviar evento de teste"). */
export async function emitTestEvent(db: Executor, accountId: string, endpointId: string): Promise<string> {
  const id = newEventId();
  await db.execute(
    sql`insert into webhook_events (id, account_id, type, payload, endpoint_id)
        select ${id}, a.id, 'webhook.test',
               jsonb_build_object('id', ${id}::text, 'type', 'webhook.test', 'timestamp', ${new Date().toISOString()}::text,
                                  'account', jsonb_build_object('id', a.id, 'uuid', a.uuid),
                                  'data', jsonb_build_object('message', 'Evento de teste enviado pelo Carteiro.'::text)),
               ${endpointId}::uuid
          from accounts a where a.id = ${accountId}`,
  );
  return id;
}
