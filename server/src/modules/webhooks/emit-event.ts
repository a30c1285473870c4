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
 * A CTE for the sending engine's outcome statement (campaigns/campaign-sender.ts `record`): when the campaign's account
 * has an enabled endpoint wanting `message.delivered`, ONE `webhook_event_batches` row with the ids of the
 * batch's messages marked sent — atomic with the outcome, one small insert per batch (coalesced), nothing but a
 * one-time EXISTS probe otherwise. The dispatcher expands it into one event per message. Expects the statement's
 * CTEs `v(id, status, …)` (the outcomes) and `held` (the batch still held by this worker).
 */
export function messageDeliveredOutboxCte(campaignId: string): SQL {
  return sql`webhook_delivered_batch as (
            insert into webhook_event_batches (account_id, type, message_ids)
            select c.created_by, 'message.delivered', s.ids
              from (select array_agg(v.id) as ids from v, held where v.status = 'sent') s
                   join campaigns c on c.id = ${campaignId}
             where s.ids is not null and ${subscribed(sql`c.created_by`, 'message.delivered')}
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

const ISO_NOW = sql`to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The envelope of an event built in SQL (`idSql`, `typeSql`, the account row `a`, `dataSql`). */
function envelopeSql(idSql: SQL, typeSql: SQL, dataSql: SQL): SQL {
  return sql`jsonb_build_object('id', ${idSql}, 'type', ${typeSql}, 'timestamp', ${ISO_NOW},
                                'account', jsonb_build_object('id', a.id, 'uuid', a.uuid), 'data', ${dataSql})`;
}

/**
 * The caller's `tags` and `metadata` of a transactional message (public API), from the message row `m`: [] and {}
 * for campaign messages. One primary-key probe per event.
 */
export const MESSAGE_LABELS_SQL = sql`jsonb_build_object(
  'tags', coalesce((select to_jsonb(t.tags) from transactional_messages t where t.message_id = m.id), '[]'::jsonb),
  'metadata', coalesce((select t.metadata from transactional_messages t where t.message_id = m.id), '{}'::jsonb))`;

/** The fields every message event carries, from the message row `m`. */
const MESSAGE_REF = sql`jsonb_build_object('messageId', m.id::text, 'campaignId', m.campaign_id,
                                           'contactId', m.contact_id, 'email', m.email) || ${MESSAGE_LABELS_SQL}`;

/**
 * A message event (bounced, complained, unsubscribed through a message) from the message row: one INSERT …
 * SELECT, nothing written when no endpoint of the message's account wants it.
 */
export async function emitMessageEvent(
  db: Executor,
  messageId: number | string,
  type: 'message.bounced' | 'message.complained' | 'contact.unsubscribed',
  extra: Record<string, unknown> = {},
): Promise<void> {
  const data =
    type === 'contact.unsubscribed'
      ? sql`jsonb_build_object('contactId', m.contact_id, 'email', m.email, 'campaignId', m.campaign_id) || ${JSON.stringify(extra)}::jsonb`
      : sql`${MESSAGE_REF} || ${JSON.stringify(extra)}::jsonb`;
  await db.execute(
    sql`insert into webhook_events (id, account_id, type, payload)
        select ev.id, a.id, ${type}, ${envelopeSql(sql`ev.id`, sql`${type}::text`, data)}
          from messages m join accounts a on a.id = m.account_id
               cross join lateral (select ${SQL_EVENT_ID} as id) ev
         where m.id = ${String(messageId)}::bigint and ${subscribed(sql`m.account_id`, type)}`,
  );
}

/** contact.unsubscribed for contacts of an account unsubscribed by the sender (no message involved). */
export async function emitContactsUnsubscribed(
  db: Executor,
  accountId: string,
  contactIds: string[],
  source: string,
): Promise<void> {
  if (contactIds.length === 0) return;
  await db.execute(
    sql`insert into webhook_events (id, account_id, type, payload)
        select ev.id, a.id, 'contact.unsubscribed',
               ${envelopeSql(
                 sql`ev.id`,
                 sql`'contact.unsubscribed'::text`,
                 sql`jsonb_build_object('contactId', c.id, 'email', c.email, 'campaignId', null, 'source', ${source}::text)`,
               )}
          from contacts c join accounts a on a.id = c.account_id
               cross join lateral (select ${SQL_EVENT_ID} as id) ev
         where c.account_id = ${accountId} and c.id = any(${`{${contactIds.join(',')}}`}::uuid[])
           and ${subscribed(sql`a.id`, 'contact.unsubscribed')}`,
  );
}

/**
 * A campaign event from the campaign row (name, account; `campaign.finished` adds the counters and the skipped
 * messages by reason); `extra`
 * is merged into `data`.
 */
export async function emitCampaignEvent(
  db: Executor,
  campaignId: string,
  type: 'campaign.started' | 'campaign.finished' | 'campaign.paused',
  extra: Record<string, unknown>,
): Promise<void> {
  const counts =
    type === 'campaign.finished'
      ? sql`jsonb_build_object('counts', jsonb_build_object('sent', c.sent_count, 'failed', c.failed_count,
                                                            'skipped', c.skipped_count),
                               'skippedByReason', c.skipped_by_reason)`
      : sql`'{}'::jsonb`;
  await db.execute(
    sql`insert into webhook_events (id, account_id, type, payload)
        select ev.id, a.id, ${type},
               ${envelopeSql(
                 sql`ev.id`,
                 sql`${type}::text`,
                 sql`jsonb_build_object('campaignId', c.id, 'name', c.name) || ${counts} || ${JSON.stringify(extra)}::jsonb`,
               )}
          from campaigns c join accounts a on a.id = c.created_by
               cross join lateral (select ${SQL_EVENT_ID} as id) ev
         where c.id = ${campaignId} and ${subscribed(sql`a.id`, type)}`,
  );
}

/**
 * A CTE for the tracking recorder's batch INSERT (tracking/event-recorder.ts): one `message.opened` /
 * `message.clicked` event per event row the statement wrote, in the same statement. Expects the CTE `ins`
 * returning message_id, account_id, kind, machine, link_id.
 */
export function engagementOutboxCte(): SQL {
  return sql`webhook_engagement_events as (
            insert into webhook_events (id, account_id, type, payload)
            select ev.id, a.id, ev.type,
                   ${envelopeSql(
                     sql`ev.id`,
                     sql`ev.type`,
                     sql`${MESSAGE_REF} || jsonb_build_object('machine', ins.machine)
                           || case when ins.kind = 'click' then jsonb_build_object('url', l.url) else '{}'::jsonb end`,
                   )}
              from ins join messages m on m.id = ins.message_id join accounts a on a.id = ins.account_id
                   left join campaign_links l on l.id = ins.link_id
                   cross join lateral (select ${SQL_EVENT_ID} as id,
                                              case ins.kind when 'open' then 'message.opened'
                                                            else 'message.clicked' end as type) ev
             where exists (select 1 from webhook_endpoints e
                            where e.account_id = ins.account_id and e.enabled and ev.type = any(e.event_types))
            returning 1)`;
}
