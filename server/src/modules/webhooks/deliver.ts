import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { accounts } from '../accounts/accounts.db';
import { authUsers } from '../auth/auth.db';
import { activeSecrets } from './endpoints';
import { postWebhook } from './post-webhook';
import { type SecretBox, webhookHeaders } from './signing';
import { type GuardOptions, UnsafeWebhookUrl, vetWebhookUrl } from './ssrf-guard';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from './webhooks.db';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export const WEBHOOK_DELIVERY_JOB = 'webhook-delivery';

export interface DeliveryDeps {
  db: Db;
  box: SecretBox;
  guard: GuardOptions;
  mailer: Mailer | null;
  logger: Pick<Logger, 'warn' | 'info' | 'error'>;
  timeoutMs: number;
  disableAfterHours: number;
  publicUrl: string;
}

/** Thrown to make pg-boss retry the job (its back-off): the attempt was recorded and may succeed later. */
export class RetryableDeliveryError extends Error {}

/** What an HTTP answer (or its absence) means: Standard Webhooks + issue 13. */
export function classifyAnswer(statusCode: number | null): 'success' | 'retry' | 'stop' | 'gone' {
  if (statusCode === null) return 'retry';
  if (statusCode >= 200 && statusCode < 300) return 'success';
  if (statusCode === 410) return 'gone';
  if (statusCode === 408 || statusCode === 429) return 'retry';
  if (statusCode >= 400 && statusCode < 500) return 'stop';
  return 'retry';
}

/**
 * One attempt of one delivery (the pg-boss job's body). Does nothing for a delivery that is no longer pending
 * (a duplicate job). Vets the URL again (DNS rebinding: connects to the address it just checked), signs with
 * every active secret, POSTs, logs the attempt, and settles the delivery: success; failure for good (4xx, 410
 * disables the endpoint, last retry, refused URL); or throws RetryableDeliveryError when `retryCount` <
 * `retryLimit` so pg-boss tries again after its back-off. A failure streak longer than disableAfterHours
 * disables the endpoint and e-mails the account owner.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  deliveryId: string,
  retry: { retryCount: number; retryLimit: number },
): Promise<'succeeded' | 'failed' | 'skipped'> {
  const { db } = deps;
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, payload: webhookEvents.payload })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row) return 'skipped';
  if (row.delivery.status !== 'pending') return 'skipped';
  const { delivery, endpoint } = row;
  const attemptedAt = new Date();

  const settle = async (status: 'succeeded' | 'failed' | 'pending', statusCode: number | null) => {
    await db
      .update(webhookDeliveries)
      .set({
        status,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        lastStatusCode: statusCode,
        lastAttemptAt: attemptedAt,
      })
      // Only while pending: a late attempt of a job that expired (its worker stalled) never undoes the outcome
      // of the retry that ran meanwhile.
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending')));
  };
  const log = (fields: { statusCode: number | null; durationMs: number; error: string | null; responseBody: string }) =>
    db.insert(webhookAttempts).values({ deliveryId, attemptedAt, ...fields });

  if (!endpoint.enabled && delivery.eventType !== 'webhook.test') {
    await log({ statusCode: null, durationMs: 0, error: 'Endpoint desativado: entrega cancelada.', responseBody: '' });
    await settle('failed', null);
    return 'failed';
  }

  let target: Awaited<ReturnType<typeof vetWebhookUrl>>;
  try {
    target = await vetWebhookUrl(endpoint.url, deps.guard);
  } catch (error) {
    if (!(error instanceof UnsafeWebhookUrl)) throw error;
    await log({ statusCode: null, durationMs: 0, error: `URL recusada: ${error.message}`, responseBody: '' });
    await settle('failed', null);
    await noteFailure(deps, endpoint.id, attemptedAt);
    return 'failed';
  }

  const body = JSON.stringify(row.payload);
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const headers = webhookHeaders(activeSecrets(deps.box, endpoint, attemptedAt), delivery.eventId, timestamp, body);
  const result = await postWebhook(target, body, headers, deps.timeoutMs);
  await log(result);
  const verdict = classifyAnswer(result.statusCode);
  if (verdict === 'success') {
    await settle('succeeded', result.statusCode);
    if (endpoint.failingSince) {
      await db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
    }
    return 'succeeded';
  }
  if (verdict === 'gone') {
    await settle('failed', result.statusCode);
    await disableEndpoint(deps, endpoint.id, 'O endpoint respondeu 410 (Gone): desativado automaticamente.');
    return 'failed';
  }
  const willRetry = verdict === 'retry' && retry.retryCount < retry.retryLimit;
  await settle(willRetry ? 'pending' : 'failed', result.statusCode);
  const disabled = await noteFailure(deps, endpoint.id, attemptedAt);
  if (willRetry && !disabled) {
    throw new RetryableDeliveryError(
      `webhook attempt failed (${result.statusCode ?? result.error}); pg-boss will retry`,
    );
  }
  if (willRetry && disabled) {
    await db
      .update(webhookDeliveries)
      .set({ status: 'failed' })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending')));
  }
  return 'failed';
}

/** Starts or extends the endpoint's failure streak; past disableAfterHours disables it. Returns whether it did. */
async function noteFailure(deps: DeliveryDeps, endpointId: string, now: Date): Promise<boolean> {
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning({ failingSince: webhookEndpoints.failingSince, enabled: webhookEndpoints.enabled });
  if (!row?.failingSince || !row.enabled) return false;
  if (now.getTime() - row.failingSince.getTime() < deps.disableAfterHours * 3600 * 1000) return false;
  const hours = Math.round((now.getTime() - row.failingSince.getTime()) / 3600_000);
  return disableEndpoint(
    deps,
    endpointId,
    `Desativado automaticamente: todas as entregas falharam nas últimas ${hours} horas.`,
  );
}

/** Disables an enabled endpoint (once) and e-mails the account owner. */
async function disableEndpoint(deps: DeliveryDeps, endpointId: string, reason: string): Promise<boolean> {
  const [endpoint] = await deps.db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
    .returning();
  if (!endpoint) return false;
  deps.logger.warn({ endpointId, accountId: endpoint.accountId }, 'webhook endpoint disabled');
  const [owner] = await deps.db
    .select({ email: authUsers.email, name: authUsers.name, accountName: accounts.name })
    .from(accounts)
    .innerJoin(authUsers, eq(authUsers.id, accounts.ownerUserId))
    .where(eq(accounts.id, endpoint.accountId));
  if (owner && deps.mailer) {
    const url = `${deps.publicUrl}/dashboard/api`;
    try {
      await deps.mailer.send({
        to: owner.email,
        subject: 'Um endpoint de webhook foi desativado no Carteiro',
        text: `Olá, ${owner.name}.\n\nO endpoint de webhook ${endpoint.url} da conta "${owner.accountName}" foi desativado.\n${reason}\n\nConfira o registro de entregas e reative-o em ${url}.\n\nEquipe Carteiro`,
        html: `<p>Olá, ${escapeHtml(owner.name)}.</p><p>O endpoint de webhook <code>${escapeHtml(endpoint.url)}</code> da conta <strong>${escapeHtml(owner.accountName)}</strong> foi desativado.</p><p>${escapeHtml(reason)}</p><p><a href="${escapeHtml(url)}">Confira o registro de entregas e reative-o</a>.</p><p>Equipe Carteiro</p>`,
      });
    } catch (error) {
      deps.logger.warn({ err: error, endpointId }, 'webhook endpoint disabled, but the e-mail could not be sent');
    }
  }
  return true;
}

/**
 * The dispatcher's first step, one statement: expands up to `limit` coalesced engine batches into one
 * `message.delivered` event per message still marked sent (timestamp = when the batch was recorded).
 */
export async function expandEventBatches(db: Db, limit = 20): Promise<number> {
  const [row] = await queryRows<{ batches: number }>(
    db,
    sql`with b as (
          select id, account_id, type, message_ids, created_at from webhook_event_batches
           where dispatched_at is null order by id limit ${limit} for update skip locked),
        marked as (update webhook_event_batches w set dispatched_at = now() from b where w.id = b.id returning 1),
        expanded as (
          insert into webhook_events (id, account_id, type, payload, created_at)
          select ev.id, a.id, b.type,
                 jsonb_build_object('id', ev.id, 'type', b.type, 'timestamp', ev.at,
                                    'account', jsonb_build_object('id', a.id, 'uuid', a.uuid),
                                    'data', jsonb_build_object('messageId', m.id::text, 'campaignId', m.campaign_id,
                                                               'contactId', m.contact_id, 'email', m.email,
                                                               'sentAt', coalesce(to_char(m.sent_at at time zone 'utc',
                                                                   'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ev.at))),
                 b.created_at
            from b cross join lateral unnest(b.message_ids) as u(message_id)
                 join messages m on m.id = u.message_id and m.status = 'sent'
                 join accounts a on a.id = b.account_id
                 cross join lateral (
                   select 'evt_' || replace(gen_random_uuid()::text, '-', '') as id,
                          to_char(b.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at) ev
          returning 1)
        select (select count(*) from marked)::int as batches, (select count(*) from expanded)::int as events`,
  );
  return row?.batches ?? 0;
}

/**
 * The dispatcher's step, one statement: takes up to `limit` undispatched outbox events (SKIP LOCKED: any number
 * of workers), creates one delivery per subscribed enabled endpoint (or the one endpoint of a test event) and
 * marks the events dispatched. Returns how many events it took.
 */
export async function dispatchEvents(db: Db, limit = 500): Promise<number> {
  const [row] = await queryRows<{ events: number }>(
    db,
    sql`with ev as (
          select id, account_id, type, endpoint_id from webhook_events
           where dispatched_at is null order by created_at limit ${limit} for update skip locked),
        marked as (update webhook_events w set dispatched_at = now() from ev where w.id = ev.id returning 1),
        created as (
          insert into webhook_deliveries (account_id, endpoint_id, event_id, event_type)
          select ev.account_id, e.id, ev.id, ev.type
            from ev join webhook_endpoints e on e.account_id = ev.account_id
           where (ev.endpoint_id is null and e.enabled and ev.type = any(e.event_types)) or e.id = ev.endpoint_id
          returning 1)
        select (select count(*) from marked)::int as events, (select count(*) from created)::int as deliveries`,
  );
  return row?.events ?? 0;
}

/**
 * Claims up to `limit` deliveries not on the queue yet (new ones, "reenviar") by stamping enqueued_at, and hands
 * their ids to `enqueue` (one pg-boss job each); when enqueue fails the stamp is undone so the next round retries.
 */
export async function enqueueDeliveries(
  db: Db,
  enqueue: (ids: string[]) => Promise<void>,
  limit = 1000,
): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update webhook_deliveries set enqueued_at = now()
         where id in (select id from webhook_deliveries where enqueued_at is null and status = 'pending'
                       order by created_at limit ${limit} for update skip locked)
        returning id`,
  );
  if (rows.length === 0) return 0;
  const ids = rows.map((r) => r.id);
  try {
    await enqueue(ids);
  } catch (error) {
    await db.execute(
      sql`update webhook_deliveries set enqueued_at = null where id = any(${`{${ids.join(',')}}`}::uuid[])`,
    );
    throw error;
  }
  return ids.length;
}

/** "Reenviar": a finished delivery goes back to pending and onto the queue (the same event id). */
export async function redeliver(db: Db, accountId: string, deliveryId: string): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', enqueuedAt: null })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.accountId, accountId),
        sql`${webhookDeliveries.status} <> 'pending'`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}
