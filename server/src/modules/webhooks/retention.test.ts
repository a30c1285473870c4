import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { sweepWebhookHistory } from './retention';
import {
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookEventBatches,
  webhookEvents,
} from './webhooks.db';

const NOW = new Date('2026-11-24T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000);

describe.each(DATABASE_KINDS)('webhook history retention (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('forgets settled deliveries, their attempts and events past the retention, and keeps anything pending or recent', async () => {
    const { accountId } = await signUp(t);
    const db = t.database.db;
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({ accountId, url: 'https://example.com/hook', eventTypes: ['contact.created'], secretCiphertext: 'x' })
      .returning();
    const endpointId = endpoint?.id as string;
    const cases = [
      { id: 'evt_old_ok', age: 40, status: 'succeeded' as const, gone: true },
      { id: 'evt_old_failed', age: 31, status: 'failed' as const, gone: true },
      { id: 'evt_old_pending', age: 45, status: 'pending' as const, gone: false },
      { id: 'evt_recent_ok', age: 29, status: 'succeeded' as const, gone: false },
    ];
    for (const c of cases) {
      await db.insert(webhookEvents).values({
        id: c.id,
        accountId,
        type: 'contact.created',
        payload: {},
        createdAt: daysAgo(c.age),
        dispatchedAt: daysAgo(c.age),
      });
      const [delivery] = await db
        .insert(webhookDeliveries)
        .values({
          accountId,
          endpointId,
          eventId: c.id,
          eventType: 'contact.created',
          status: c.status,
          createdAt: daysAgo(c.age),
        })
        .returning();
      await db
        .insert(webhookAttempts)
        .values({ deliveryId: delivery?.id as string, attemptedAt: daysAgo(c.age), durationMs: 5 });
    }
    // An old event never dispatched stays (the dispatcher still owes it its deliveries).
    await db.insert(webhookEvents).values({
      id: 'evt_old_undispatched',
      accountId,
      type: 'contact.created',
      payload: {},
      createdAt: daysAgo(60),
    });
    await db.insert(webhookEventBatches).values([
      { accountId, type: 'message.delivered', messageIds: [1, 2], createdAt: daysAgo(50), dispatchedAt: daysAgo(50) },
      { accountId, type: 'message.delivered', messageIds: [3], createdAt: daysAgo(50) },
    ]);

    const result = await sweepWebhookHistory(db, { now: NOW, retentionDays: 30 });
    expect(result).toEqual({ deliveries: 2, events: 2, eventBatches: 1 });

    const events = (await db.select({ id: webhookEvents.id }).from(webhookEvents)).map((e) => e.id).sort();
    expect(events).toEqual(['evt_old_pending', 'evt_old_undispatched', 'evt_recent_ok']);
    const deliveries = (await db.select({ eventId: webhookDeliveries.eventId }).from(webhookDeliveries))
      .map((d) => d.eventId)
      .sort();
    expect(deliveries).toEqual(['evt_old_pending', 'evt_recent_ok']);
    expect(await db.select().from(webhookAttempts)).toHaveLength(2);
    const batches = await db.select().from(webhookEventBatches);
    expect(batches.map((b) => b.messageIds)).toEqual([[3]]);

    // A second pass finds nothing more to do.
    expect(await sweepWebhookHistory(db, { now: NOW, retentionDays: 30 })).toEqual({
      deliveries: 0,
      events: 0,
      eventBatches: 0,
    });
  });
});
