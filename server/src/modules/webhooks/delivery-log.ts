import type { AnyWebhookEventType, WebhookDeliveryDto, WebhookDeliveryStatus } from '@carteiro/shared';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { webhookAttempts, webhookDeliveries, webhookEvents } from './webhooks.db';

/** An endpoint's deliveries, newest first, each with its attempts (the delivery log of the API page). */
export async function listDeliveries(
  db: Db,
  accountId: string,
  endpointId: string,
  filter: { status?: WebhookDeliveryStatus; eventType?: AnyWebhookEventType; limit: number },
): Promise<WebhookDeliveryDto[]> {
  const rows = await db
    .select({ delivery: webhookDeliveries, payload: webhookEvents.payload })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.accountId, accountId),
        eq(webhookDeliveries.endpointId, endpointId),
        filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
        filter.eventType ? eq(webhookDeliveries.eventType, filter.eventType) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(filter.limit);
  const ids = rows.map((r) => r.delivery.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(inArray(webhookAttempts.deliveryId, ids))
          .orderBy(desc(webhookAttempts.attemptedAt));
  return rows.map(({ delivery, payload }) => ({
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType as AnyWebhookEventType,
    status: delivery.status,
    attempts: delivery.attempts,
    createdAt: delivery.createdAt.toISOString(),
    lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
    lastStatusCode: delivery.lastStatusCode,
    payload,
    attemptLog: [
      ...attempts
        .filter((a) => a.deliveryId === delivery.id)
        .map((a) => ({
          id: a.id,
          attemptedAt: a.attemptedAt.toISOString(),
          statusCode: a.statusCode,
          durationMs: a.durationMs,
          error: a.error,
          responseBody: a.responseBody,
        })),
      // A first attempt that succeeded is kept on the delivery row (no webhook_attempts row): the same entry.
      ...(delivery.firstAttempt
        ? [
            {
              id: delivery.id,
              attemptedAt: new Date(delivery.firstAttempt.attemptedAt).toISOString(),
              statusCode: delivery.firstAttempt.statusCode,
              durationMs: delivery.firstAttempt.durationMs,
              error: null,
              responseBody: delivery.firstAttempt.responseBody,
            },
          ]
        : []),
    ].sort((a, b) => b.attemptedAt.localeCompare(a.attemptedAt)),
  }));
}
