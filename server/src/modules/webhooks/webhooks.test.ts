import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WEBHOOK_EVENT_SCHEMAS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@carteiro/shared';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { startCampaignSend } from '../campaigns/start-campaign-send';
import { createListWithContacts, createReadyCampaign, creditAccount } from '../sending/testing/send-fixtures';
import { claimDueDeliveries, type DueKey, newClaimToken } from './deliver';
import { dispatchEvents } from './dispatch';
import { emitWebhookEvent } from './emit-event';
import { createSecretBox } from './signing';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from './webhooks.db';
import { startWebhookWorker, type WebhookWorker } from './webhooks-runtime';

/** What the receiver does with the n-th request (0-based) it gets on a path. */
type Behaviour = (n: number, req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1: records every request, answers per path. */
async function startReceiver() {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      const body = Buffer.concat(chunks).toString();
      received.push({ path, headers: req.headers as Record<string, string>, body });
      const behaviour = behaviours.get(path);
      if (behaviour) behaviour(n, req, res, body);
      else res.writeHead(204).end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    on: (path: string, behaviour: Behaviour) => behaviours.set(path, behaviour),
    on_path: (path: string) => received.filter((r) => r.path === path),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until<T>(probe: () => Promise<T | null | false | undefined>, what: string, ms = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const DEV_ENV = {
  WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOKS_RETRY_LIMIT: '2',
  WEBHOOKS_RETRY_DELAY_SECONDS: '0',
  WEBHOOKS_TIMEOUT_MS: '3000',
  WEBHOOKS_LEASE_SECONDS: '1',
};

describe.each(DATABASE_KINDS)('webhooks (%s)', (kind) => {
  describe('endpoints without the development setting', () => {
    let t: TestApp;
    let user: SignedInUser;
    beforeAll(async () => {
      t = await createTestApp(kind);
      user = await signUp(t, { verified: true });
    });
    afterAll(() => t.close());

    it.each([
      'http://127.0.0.1:9/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
    ])('refuses %s when saved (400 on url, pt-BR)', async (url) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/endpoints',
        headers: user.headers,
        payload: { url, eventTypes: ['message.delivered'] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.message).toMatch(/^url: /);
    });

    it('validates the input in pt-BR', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/endpoints',
        headers: user.headers,
        payload: { url: 'https://exemplo.com.br/hook', eventTypes: [] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('Escolha pelo menos um tipo de evento.');
    });
  });

  describe('with a receiver on loopback (development setting on)', () => {
    let t: TestApp;
    let owner: SignedInUser;
    let other: SignedInUser;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let worker: WebhookWorker;
    const logger = pino({ level: 'silent' });

    async function startWorker(
      options: {
        endpointConcurrency?: number;
        concurrency?: number;
        accountConcurrency?: number;
        strict?: boolean;
        timeoutMs?: number;
        idlePollMs?: number;
        leaseSeconds?: number;
      } = {},
    ): Promise<WebhookWorker> {
      return startWebhookWorker({
        config: {
          ...t.config,
          ...(options.strict ? { WEBHOOKS_ALLOW_PRIVATE_URLS: false } : {}),
          ...(options.timeoutMs ? { WEBHOOKS_TIMEOUT_MS: options.timeoutMs } : {}),
          ...(options.idlePollMs ? { WEBHOOKS_DISPATCH_MS: options.idlePollMs } : {}),
          ...(options.leaseSeconds ? { WEBHOOKS_LEASE_SECONDS: options.leaseSeconds } : {}),
          ...(options.concurrency ? { WEBHOOKS_CONCURRENCY: options.concurrency } : {}),
          ...(options.accountConcurrency ? { WEBHOOKS_ACCOUNT_CONCURRENCY: options.accountConcurrency } : {}),
        },
        db: t.database.db,
        mailer: t.mailer,
        logger,
        resolver: { addresses: async () => [] },
        box: createSecretBox(t.config.AUTH_SECRET as string),
        endpointConcurrency: options.endpointConcurrency,
      });
    }

    /**
     * Ends a test that ran its own lanes against endpoints that hang: the paths answer `status` from now on, every
     * held request is answered, the test's lanes stop and the shared worker starts again.
     */
    async function answerHungAndRestart(
      lanes: WebhookWorker,
      paths: string[],
      hung: http.ServerResponse[],
      status = 200,
    ): Promise<void> {
      for (const path of paths) receiver.on(path, (_n, _req, res) => res.writeHead(status).end());
      for (const res of hung.splice(0)) res.writeHead(status).end();
      await lanes.stop();
      worker = await startWorker();
    }

    beforeAll(async () => {
      t = await createTestApp(kind, DEV_ENV);
      owner = await signUp(t, { verified: true });
      other = await signUp(t, { verified: true });
      receiver = await startReceiver();
      worker = await startWorker();
    });
    afterAll(async () => {
      await worker.stop();
      await receiver.close();
      await t.close();
    });

    async function createEndpoint(user: SignedInUser, path: string, eventTypes: string[] = [...WEBHOOK_EVENT_TYPES]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/endpoints',
        headers: user.headers,
        payload: { url: receiver.url(path), description: `teste ${path}`, eventTypes },
      });
      expect(res.statusCode).toBe(201);
      const id = res.json().id as string;
      const secret = await t.app.inject({
        method: 'GET',
        url: `/api/webhooks/endpoints/${id}/secret`,
        headers: user.headers,
      });
      return { id, secret: secret.json().secret as string };
    }
    async function deliveries(user: SignedInUser, endpointId: string, query = '') {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/webhooks/endpoints/${endpointId}/deliveries${query}`,
        headers: user.headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json().items as Array<{
        id: string;
        status: string;
        attempts: number;
        eventType: string;
        lastStatusCode: number | null;
        attemptLog: Array<{ statusCode: number | null; error: string | null; responseBody: string }>;
      }>;
    }
    async function settled(user: SignedInUser, endpointId: string, count: number) {
      return until(async () => {
        await worker.dispatchOnce();
        const items = await deliveries(user, endpointId);
        return items.length >= count && items.every((d) => d.status !== 'pending') ? items : null;
      }, 'deliveries to settle');
    }

    const sampleData: { [T in WebhookEventType]: unknown } = {
      'message.delivered': {
        messageId: '1',
        campaignId: crypto.randomUUID(),
        contactId: null,
        email: 'a@exemplo.com.br',
        tags: ['pedido'],
        metadata: { pedido: '1' },
        sentAt: new Date().toISOString(),
      },
      'message.opened': {
        messageId: '1',
        campaignId: crypto.randomUUID(),
        contactId: null,
        email: 'a@exemplo.com.br',
        tags: ['pedido'],
        metadata: { pedido: '1' },
        machine: false,
      },
      'message.clicked': {
        messageId: '1',
        campaignId: crypto.randomUUID(),
        contactId: null,
        email: 'a@exemplo.com.br',
        tags: ['pedido'],
        metadata: { pedido: '1' },
        url: 'https://exemplo.com.br',
        machine: false,
      },
      'message.bounced': {
        messageId: '1',
        campaignId: crypto.randomUUID(),
        contactId: null,
        email: 'a@exemplo.com.br',
        tags: ['pedido'],
        metadata: { pedido: '1' },
        bounceType: 'hard',
        reason: '5.1.1 user unknown',
      },
      'message.complained': {
        messageId: '1',
        campaignId: crypto.randomUUID(),
        contactId: null,
        email: 'a@exemplo.com.br',
        tags: ['pedido'],
        metadata: { pedido: '1' },
      },
      'contact.unsubscribed': {
        contactId: crypto.randomUUID(),
        email: 'a@exemplo.com.br',
        campaignId: null,
        source: 'link',
      },
      'campaign.started': { campaignId: crypto.randomUUID(), name: 'Promo', recipients: 10 },
      'campaign.finished': {
        campaignId: crypto.randomUUID(),
        name: 'Promo',
        status: 'sent',
        counts: { sent: 9, failed: 1, skipped: 0 },
        skippedByReason: {},
        costMillis: 45,
      },
      'campaign.paused': { campaignId: crypto.randomUUID(), name: 'Promo', reason: 'pausada pelo usuário' },
      'balance.low': { balanceMillis: 4000, thresholdMillis: 5000 },
      'topup.credited': { topupId: crypto.randomUUID(), amountMillis: 10000, balanceMillis: 14000 },
    };

    it('delivers every event type once per subscribed endpoint, signed (standardwebhooks verifies), never to another account', async () => {
      const all = await createEndpoint(owner, '/all');
      const onlyLow = await createEndpoint(owner, '/only-low', ['balance.low']);
      const foreign = await createEndpoint(other, '/foreign');
      for (const type of WEBHOOK_EVENT_TYPES) {
        await emitWebhookEvent(t.database.db, owner.accountId, type, sampleData[type] as never);
      }
      await settled(owner, all.id, WEBHOOK_EVENT_TYPES.length);
      await settled(owner, onlyLow.id, 1);
      const toAll = receiver.on_path('/all');
      expect(toAll.map((r) => JSON.parse(r.body).type).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
      const verifier = new Webhook(all.secret);
      for (const r of toAll) {
        const payload = verifier.verify(r.body, r.headers) as {
          id: string;
          type: WebhookEventType;
          account: { id: string };
        };
        expect(r.headers['webhook-id']).toBe(payload.id);
        expect(payload.account.id).toBe(owner.accountId);
        expect(WEBHOOK_EVENT_SCHEMAS[payload.type].safeParse(payload).success).toBe(true);
        // Tampered body / old timestamp fail verification.
        expect(() => verifier.verify(r.body.replace(owner.accountId, other.accountId), r.headers)).toThrow();
        expect(() =>
          verifier.verify(r.body, { ...r.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 600) }),
        ).toThrow();
      }
      const toLow = receiver.on_path('/only-low');
      expect(toLow.map((r) => JSON.parse(r.body).type)).toEqual(['balance.low']);
      expect(new Webhook(onlyLow.secret).verify(toLow[0]?.body ?? '', toLow[0]?.headers ?? {})).toBeTruthy();
      expect(receiver.on_path('/foreign')).toHaveLength(0);
      expect(await deliveries(other, foreign.id)).toHaveLength(0);
      // The other account sees nothing of this one.
      const peek = await t.app.inject({
        method: 'GET',
        url: `/api/webhooks/endpoints/${all.id}/deliveries`,
        headers: other.headers,
      });
      expect(peek.statusCode).toBe(404);
      const list = await t.app.inject({ method: 'GET', url: '/api/webhooks/endpoints', headers: other.headers });
      expect(list.json().items.map((e: { id: string }) => e.id)).toEqual([foreign.id]);
    });

    it('retries after a 500 with the exact number of attempts, then "reenviar" delivers the same event again', async () => {
      receiver.on('/always-500', (_n, _req, res) => res.writeHead(500).end('erro interno do receptor'));
      const ep = await createEndpoint(owner, '/always-500', ['campaign.started']);
      await emitWebhookEvent(
        t.database.db,
        owner.accountId,
        'campaign.started',
        sampleData['campaign.started'] as never,
      );
      const [failed] = await settled(owner, ep.id, 1);
      expect(failed?.status).toBe('failed');
      expect(failed?.attempts).toBe(3); // 1 + WEBHOOKS_RETRY_LIMIT
      expect(failed?.attemptLog.map((a) => a.statusCode)).toEqual([500, 500, 500]);
      expect(failed?.attemptLog[0]?.responseBody).toBe('erro interno do receptor');
      const ids = new Set(receiver.on_path('/always-500').map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);

      receiver.on('/always-500', (_n, _req, res) => res.writeHead(200).end('ok'));
      const again = await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/deliveries/${failed?.id}/redeliver`,
        headers: owner.headers,
      });
      expect(again.statusCode).toBe(202);
      const [ok] = await settled(owner, ep.id, 1);
      expect(ok?.status).toBe('succeeded');
      expect(receiver.on_path('/always-500')).toHaveLength(4);
      expect(new Set(receiver.on_path('/always-500').map((r) => r.headers['webhook-id'])).size).toBe(1);
      const filtered = await deliveries(owner, ep.id, '?status=failed');
      expect(filtered).toHaveLength(0);
    });

    it('retries after a 500 then succeeds; retries a dropped connection; stops on a 400', async () => {
      receiver.on('/flaky', (n, _req, res) => (n === 0 ? res.writeHead(503).end() : res.writeHead(200).end()));
      receiver.on('/drop', (n, req, res) => (n === 0 ? req.socket.destroy() : res.writeHead(200).end()));
      receiver.on('/bad', (_n, _req, res) => res.writeHead(400).end('payload recusado'));
      const flaky = await createEndpoint(owner, '/flaky', ['topup.credited']);
      const drop = await createEndpoint(owner, '/drop', ['topup.credited']);
      const bad = await createEndpoint(owner, '/bad', ['topup.credited']);
      await emitWebhookEvent(t.database.db, owner.accountId, 'topup.credited', sampleData['topup.credited'] as never);
      const [f] = await settled(owner, flaky.id, 1);
      expect([f?.status, f?.attempts]).toEqual(['succeeded', 2]);
      const [d] = await settled(owner, drop.id, 1);
      expect([d?.status, d?.attempts]).toEqual(['succeeded', 2]);
      expect(d?.attemptLog.at(-1)?.error).toMatch(/Falha de conexão/);
      const [b] = await settled(owner, bad.id, 1);
      expect([b?.status, b?.attempts]).toEqual(['failed', 1]);
      expect(receiver.on_path('/bad')).toHaveLength(1);
    });

    it('a 410 disables the endpoint and e-mails the owner', async () => {
      receiver.on('/gone', (_n, _req, res) => res.writeHead(410).end());
      const gone = await createEndpoint(owner, '/gone', ['campaign.paused']);
      await emitWebhookEvent(t.database.db, owner.accountId, 'campaign.paused', sampleData['campaign.paused'] as never);
      const [g] = await settled(owner, gone.id, 1);
      expect([g?.status, g?.attempts]).toEqual(['failed', 1]);
      // The endpoint is disabled right after the outcome is recorded (the same flush, next statement).
      const row = await until(async () => {
        const [r] = await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, gone.id));
        return r && !r.enabled ? r : null;
      }, 'the endpoint to be disabled');
      expect(row.disabledReason).toContain('410');
      const mail = await until(
        async () => (await t.sentMail()).find((m) => m.subject.includes('webhook')),
        'the e-mail',
      );
      expect(mail.to).toContain(owner.email);
      // A disabled endpoint gets nothing more.
      await emitWebhookEvent(t.database.db, owner.accountId, 'campaign.paused', sampleData['campaign.paused'] as never);
      await worker.dispatchOnce();
      expect(await deliveries(owner, gone.id)).toHaveLength(1);
    });

    it('refuses a private address at delivery time too (an endpoint saved while allowed)', async () => {
      const ep = await createEndpoint(owner, '/later', ['balance.low']);
      await t.database.db
        .update(webhookEndpoints)
        .set({ url: 'https://10.0.0.1/hook' })
        .where(eq(webhookEndpoints.id, ep.id));
      await worker.stop();
      const strict = await startWorker({ strict: true });
      try {
        await emitWebhookEvent(t.database.db, owner.accountId, 'balance.low', sampleData['balance.low'] as never);
        const items = await until(async () => {
          await strict.dispatchOnce();
          const list = await deliveries(owner, ep.id);
          return list.length === 1 && list[0]?.status === 'failed' ? list : null;
        }, 'the refusal');
        expect(items[0]?.attemptLog[0]?.error).toMatch(/URL recusada/);
      } finally {
        await strict.stop();
        worker = await startWorker();
      }
    });

    it('a worker stalled mid-delivery does not lose the event: its lease ends, another worker delivers, its late failure changes nothing', async () => {
      let hung: http.ServerResponse | null = null;
      receiver.on('/slow', (n, _req, res) => {
        if (n === 0) hung = res;
        else res.writeHead(200).end('ok');
      });
      const ep = await createEndpoint(owner, '/slow', ['message.opened']);
      await emitWebhookEvent(t.database.db, owner.accountId, 'message.opened', sampleData['message.opened'] as never);
      await worker.dispatchOnce();
      await until(async () => hung, 'the first request');
      // The first worker hangs on that request (its timeout is 3 s); a second worker finds the delivery due again
      // once the 1 s lease has ended and delivers it.
      const second = await startWorker();
      try {
        const [done] = await settled(owner, ep.id, 1);
        expect(done?.status).toBe('succeeded');
        // The stalled attempt ends late (its connection drops): it is logged, and cannot undo the success.
        (hung as http.ServerResponse | null)?.socket?.destroy();
        await until(async () => {
          const [d] = await deliveries(owner, ep.id);
          return (d?.attemptLog.length ?? 0) >= 2 ? d : null;
        }, 'the late attempt to be logged');
      } finally {
        await second.stop();
      }
      const requests = receiver.on_path('/slow');
      expect(requests).toHaveLength(2);
      expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const [row] = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, ep.id));
      expect(row?.status).toBe('succeeded');
      expect(row?.attempts).toBe(1);
    });

    it('a delivery claimed by a worker that died (never attempted) is delivered once its lease ends', async () => {
      const ep = await createEndpoint(owner, '/orphan', ['message.complained']);
      await worker.stop();
      try {
        await emitWebhookEvent(
          t.database.db,
          owner.accountId,
          'message.complained',
          sampleData['message.complained'] as never,
        );
        await worker.dispatchOnce();
        // The dead worker: it claimed the delivery and vanished before any attempt.
        const claimed = await claimDueDeliveries(t.database.db, {
          claimToken: newClaimToken(),
          leaseSeconds: 3_600,
          perEndpoint: 10,
          total: 10,
          busy: new Map(),
        });
        expect(claimed.filter((d) => d.endpointId === ep.id)).toHaveLength(1);
        // Its lease ends: moved on the row (a lease is the database's time), not waited for.
        await t.database.db.execute(
          sql`update webhook_deliveries set next_attempt_at = now() where endpoint_id = ${ep.id}`,
        );
      } finally {
        worker = await startWorker();
      }
      const [done] = await settled(owner, ep.id, 1);
      expect([done?.status, done?.attempts]).toEqual(['succeeded', 1]);
      expect(receiver.on_path('/orphan')).toHaveLength(1);
    });

    it("a claim starts where the endpoint's last one stopped; from the beginning it finds what became due behind", async () => {
      const ep = await createEndpoint(owner, '/keyed', ['campaign.finished']);
      await worker.stop();
      const db = t.database.db;
      try {
        for (let i = 0; i < 3; i++) {
          await emitWebhookEvent(db, owner.accountId, 'campaign.finished', sampleData['campaign.finished'] as never);
          await new Promise((r) => setTimeout(r, 2)); // distinct event times (PGlite's clock ticks in ms)
        }
        await worker.dispatchOnce();
        // Every other endpoint is full: these claims take only this endpoint's deliveries.
        const endpoints = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints);
        const busy = new Map(endpoints.filter((e) => e.id !== ep.id).map((e) => [e.id, 1]));
        const claim = (after?: Map<string, DueKey>) =>
          claimDueDeliveries(db, {
            claimToken: newClaimToken(),
            leaseSeconds: 3_600,
            perEndpoint: 1,
            total: 1,
            busy,
            after,
          });
        const [first] = await claim();
        const [second] = await claim(new Map([[ep.id, first!.dueKey]]));
        expect(second?.id).toBeDefined();
        expect(second?.id).not.toBe(first?.id);
        expect(new Date(second!.dueKey.at).getTime()).toBeGreaterThanOrEqual(new Date(first!.dueKey.at).getTime());
        // The third becomes due behind both (as a late outbox event would): a claim from the last start misses it,
        // a claim from the beginning takes it.
        await db.execute(
          sql`update webhook_deliveries set next_attempt_at = ${first!.dueKey.at}::timestamptz - interval '1 minute'
               where endpoint_id = ${ep.id} and claim_token is null`,
        );
        expect(await claim(new Map([[ep.id, second!.dueKey]]))).toEqual([]);
        const [late] = await claim();
        expect(late?.id).toBeDefined();
        expect([first?.id, second?.id]).not.toContain(late?.id);
      } finally {
        // The three leases end; the worker delivers them.
        await db.execute(sql`update webhook_deliveries set next_attempt_at = now() where endpoint_id = ${ep.id}`);
        worker = await startWorker();
      }
      const done = await settled(owner, ep.id, 3);
      expect(done.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
      expect(receiver.on_path('/keyed')).toHaveLength(3);
    });

    it('a dead endpoint holds only its own slots: another account is served in full meanwhile', async () => {
      // The dead endpoint accepts the connection and never answers (the attempt's budget here: 60 s).
      const hung: http.ServerResponse[] = [];
      receiver.on('/dead', (_n, _req, res) => hung.push(res));
      const dead = await createEndpoint(owner, '/dead', ['balance.low']);
      const live = await createEndpoint(other, '/live', ['balance.low']);
      await worker.stop();
      const lanes = await startWorker({ endpointConcurrency: 2, timeoutMs: 60_000 });
      try {
        for (let i = 0; i < 10; i++) {
          await emitWebhookEvent(t.database.db, owner.accountId, 'balance.low', sampleData['balance.low'] as never);
          await emitWebhookEvent(t.database.db, other.accountId, 'balance.low', sampleData['balance.low'] as never);
        }
        await lanes.dispatchOnce();
        const served = await until(async () => {
          const items = await deliveries(other, live.id);
          return items.length === 10 && items.every((d) => d.status === 'succeeded') ? items : null;
        }, 'the live endpoint to be served');
        expect(served).toHaveLength(10);
        // Meanwhile the dead endpoint got exactly its two slots' worth, and nothing of it settled.
        expect(receiver.on_path('/dead')).toHaveLength(2);
        const waiting = await deliveries(owner, dead.id);
        expect(waiting).toHaveLength(10);
        expect(waiting.every((d) => d.status === 'pending')).toBe(true);
      } finally {
        // The endpoint comes back.
        receiver.on('/dead', (_n, _req, res) => res.writeHead(200).end());
        for (const res of hung) res.writeHead(200).end();
        await lanes.stop();
        worker = await startWorker();
      }
      await settled(owner, dead.id, 10);
      expect(receiver.on_path('/dead')).toHaveLength(10);
    });

    it("one account's many dead endpoints hold only the account's share of the process: another account is served", async () => {
      // Three dead endpoints of one account at two slots each would hold more than the process's four slots, and their
      // queues more than its room; the account's share is three in flight (and twice that held).
      const hung: http.ServerResponse[] = [];
      const paths = ['/many-dead-1', '/many-dead-2', '/many-dead-3'];
      for (const path of paths) receiver.on(path, (_n, _req, res) => hung.push(res));
      // An account of its own: every test here adds endpoints to the shared ones, which hold 20 at most.
      const crowded = await signUp(t, { verified: true });
      const dead = [];
      for (const path of paths) dead.push(await createEndpoint(crowded, path, ['campaign.started']));
      const live = await createEndpoint(other, '/share-live', ['campaign.started']);
      await worker.stop();
      const lanes = await startWorker({
        endpointConcurrency: 2,
        concurrency: 4,
        accountConcurrency: 3,
        timeoutMs: 60_000,
      });
      try {
        for (let i = 1; i <= 10; i++) {
          const started = { campaignId: crypto.randomUUID(), name: `c${i}`, recipients: i };
          await emitWebhookEvent(t.database.db, crowded.accountId, 'campaign.started', started as never);
          await emitWebhookEvent(t.database.db, other.accountId, 'campaign.started', started as never);
          // Event order is created_at order (PGlite's clock ticks in milliseconds).
          await new Promise((r) => setTimeout(r, 2));
        }
        await lanes.dispatchOnce();
        const served = await until(async () => {
          const items = await deliveries(other, live.id);
          return items.length === 10 && items.every((d) => d.status === 'succeeded') ? items : null;
        }, 'the other account to be served');
        expect(served).toHaveLength(10);
        expect(paths.flatMap((path) => receiver.on_path(path))).toHaveLength(3);
        for (const ep of dead) {
          const waiting = await deliveries(crowded, ep.id);
          expect(waiting.map((d) => d.status)).toEqual(Array(10).fill('pending'));
        }
      } finally {
        await answerHungAndRestart(lanes, paths, hung);
      }
      for (const ep of dead) await settled(crowded, ep.id, 10);
      // Every event once per endpoint, first attempts in event order — what was given back went back to its place.
      const names = Array.from({ length: 10 }, (_, i) => `c${i + 1}`);
      for (const path of paths) {
        expect(receiver.on_path(path).map((r) => JSON.parse(r.body).data.name)).toEqual(names);
      }
    });

    it("a full account's endpoints get no room: its new deliveries are born due and no claim takes them; another account keeps its room", async () => {
      // Two dead endpoints of one account hold its whole base (four: two in flight, its share, and two queued), each
      // still under its own reach. Whatever a birth or a claim gave them would only be given back at once: a claim
      // and a release, row versions in the index for nothing.
      const hung: http.ServerResponse[] = [];
      const paths = ['/full-1', '/full-2'];
      for (const path of paths) receiver.on(path, (_n, _req, res) => hung.push(res));
      const full = await signUp(t, { verified: true });
      const neighbour = await signUp(t, { verified: true });
      const dead: { id: string }[] = [];
      for (const path of paths) dead.push(await createEndpoint(full, path, ['campaign.started']));
      const live = await createEndpoint(neighbour, '/full-neighbour', ['campaign.started']);
      const db = t.database.db;
      const emit = (user: SignedInUser, name: string) =>
        emitWebhookEvent(db, user.accountId, 'campaign.started', {
          campaignId: crypto.randomUUID(),
          name,
          recipients: 1,
        } as never);
      const served = async (n: number) => {
        const items = await deliveries(neighbour, live.id);
        return items.length === n && items.every((d) => d.status === 'succeeded');
      };
      // Each delivery's row version (xmin): a claim or a release writes a new one.
      const rowsOfDead = () =>
        db
          .select({
            id: webhookDeliveries.id,
            claimToken: webhookDeliveries.claimToken,
            version: sql<string>`xmin::text`,
          })
          .from(webhookDeliveries)
          .where(
            inArray(
              webhookDeliveries.endpointId,
              dead.map((ep) => ep.id),
            ),
          );
      await worker.stop();
      const lanes = await startWorker({
        endpointConcurrency: 2,
        concurrency: 4,
        accountConcurrency: 2,
        timeoutMs: 60_000,
        leaseSeconds: 300,
      });
      try {
        // Two events each, born claimed (the endpoints are new: a room of four each): the account's base of four.
        await emit(full, 'c1');
        await emit(full, 'c2');
        await emit(neighbour, 'n1');
        await lanes.dispatchOnce();
        await until(async () => hung.length === 2 && (await served(1)), 'the account full and its neighbour served');
        // Each dead endpoint holds two of its reach of four, but its account holds its whole base: no room. The
        // neighbour's endpoint, idle, has its reach.
        const plan = lanes.births.plan();
        expect(dead.map((ep) => plan?.rooms.get(ep.id))).toEqual([0, 0]);
        expect(plan?.rooms.get(live.id)).toBe(4);

        const before = new Set((await rowsOfDead()).map((r) => r.id));
        for (const name of ['c3', 'c4', 'c5']) await emit(full, name);
        await lanes.dispatchOnce();
        const born = (await rowsOfDead()).filter((r) => !before.has(r.id));
        expect(born).toHaveLength(6);
        expect(born.map((r) => r.claimToken)).toEqual(Array(6).fill(null));
        // A delivery of the neighbour made due by another worker's dispatcher (no births there): only a claim of these
        // lanes takes it, and that claim finds the full account's six due as well.
        await emit(neighbour, 'n2');
        await dispatchEvents(db, 500);
        await until(async () => {
          await lanes.dispatchOnce();
          return served(2);
        }, "the neighbour's due delivery to be claimed");
        // The six were never claimed nor given back: still due, each row the version the one insert wrote.
        const now = (await rowsOfDead()).filter((r) => !before.has(r.id));
        expect(now.map((r) => r.claimToken)).toEqual(Array(6).fill(null));
        expect(new Set(now.map((r) => r.version)).size).toBe(1);
        expect(new Map(now.map((r) => [r.id, r.version]))).toEqual(new Map(born.map((r) => [r.id, r.version])));
        expect(paths.flatMap((path) => receiver.on_path(path))).toHaveLength(2);
      } finally {
        await answerHungAndRestart(lanes, paths, hung);
      }
      for (const ep of dead) await settled(full, ep.id, 5);
    });

    it("an account's fast endpoints keep their own reach: together they hold far more than the account's base", async () => {
      const paths = ['/fast-share-1', '/fast-share-2', '/fast-share-3'];
      const quick = await signUp(t, { verified: true });
      const fast: { id: string }[] = [];
      for (const path of paths) fast.push(await createEndpoint(quick, path, ['campaign.started']));
      const db = t.database.db;
      const emit = async (from: number, to: number) => {
        for (let i = from; i <= to; i++) {
          await emitWebhookEvent(db, quick.accountId, 'campaign.started', {
            campaignId: crypto.randomUUID(),
            name: `c${i}`,
            recipients: i,
          } as never);
        }
      };
      const served = async (n: number) => {
        for (const ep of fast) {
          const items = await deliveries(quick, ep.id);
          if (items.length !== n || items.some((d) => d.status !== 'succeeded')) return false;
        }
        return true;
      };
      await worker.stop();
      // A pace is elapsed time, read by the lanes as Date.now(). With that clock standing still, it is measured only
      // when the test moves it a second on: ten answers in that second are a pace of exactly ten, and it stays so.
      // (`until` reads the same clock: meanwhile only the test's own timeout bounds a wait.)
      const t0 = Date.now();
      const clock = vi.spyOn(Date, 'now').mockReturnValue(t0);
      const hung: http.ServerResponse[] = [];
      const lanes = await startWorker({
        endpointConcurrency: 2,
        concurrency: 4,
        accountConcurrency: 2,
        timeoutMs: 60_000,
        leaseSeconds: 300,
      });
      try {
        // Ten events to each of the three, answered at once.
        await emit(1, 10);
        await until(async () => {
          await lanes.dispatchOnce();
          return served(10);
        }, 'ten events at each endpoint');
        clock.mockReturnValue(t0 + 1_000);
        // A pace of ten: a reach of twenty each, once the claims that caught up with them are over — past the
        // account's base of four, for each alone.
        await until(async () => {
          await lanes.dispatchOnce();
          const plan = lanes.births.plan();
          return fast.every((ep) => plan?.rooms.get(ep.id) === 20);
        }, 'each fast endpoint to have its reach');
        // Fifteen more each, while the endpoints hold their answers: all born claimed, and kept — two in flight (the
        // account's share of slots), 43 queued. Counted against the account they would be given back but four.
        for (const path of paths) receiver.on(path, (_n, _req, res) => hung.push(res));
        await emit(11, 25);
        await lanes.dispatchOnce();
        await until(async () => hung.length === 2, "the account's two slots in flight");
        const plan = lanes.births.plan();
        expect(fast.map((ep) => plan?.rooms.get(ep.id))).toEqual([5, 5, 5]);
        const held = await db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(
            and(
              inArray(
                webhookDeliveries.endpointId,
                fast.map((ep) => ep.id),
              ),
              isNotNull(webhookDeliveries.claimToken),
            ),
          );
        expect(held).toHaveLength(45);
        expect(paths.flatMap((path) => receiver.on_path(path))).toHaveLength(32);
      } finally {
        clock.mockRestore();
        await answerHungAndRestart(lanes, paths, hung, 204);
      }
      for (const ep of fast) await settled(quick, ep.id, 25);
    });

    it('a freed slot of a saturated endpoint is filled at once, not when half its capacity is back', async () => {
      // Every answer is held until released; the idle poll is a minute away, so only a freed slot can wake a claim.
      const held: http.ServerResponse[] = [];
      receiver.on('/held', (_n, _req, res) => held.push(res));
      const ep = await createEndpoint(owner, '/held', ['message.complained']);
      await worker.stop();
      const lanes = await startWorker({ endpointConcurrency: 4, idlePollMs: 60_000 });
      try {
        for (let i = 0; i < 6; i++) {
          await emitWebhookEvent(
            t.database.db,
            owner.accountId,
            'message.complained',
            sampleData['message.complained'] as never,
          );
        }
        await lanes.dispatchOnce();
        await until(async () => held.length === 4, 'the endpoint to fill its four slots');
        // One answer back: the fifth event goes out while the other three are still in flight.
        held.shift()?.writeHead(200).end();
        await until(async () => held.length === 4, 'the freed slot to be claimed again');
        expect(receiver.on_path('/held')).toHaveLength(5);
      } finally {
        receiver.on('/held', (_n, _req, res) => res.writeHead(200).end());
        for (const res of held.splice(0)) res.writeHead(200).end();
        await lanes.stop();
        worker = await startWorker();
      }
      await settled(owner, ep.id, 6);
    });

    it('a fast endpoint is served continuously, not in one burst per idle poll', async () => {
      // Answers within a few ms, staggered so that attempts end while a claim is running; the idle poll is a
      // minute away, so every claim after the first comes from freed slots.
      receiver.on('/fast', (n, _req, res) => setTimeout(() => res.writeHead(204).end(), (n % 4) * 3));
      const ep = await createEndpoint(owner, '/fast', ['message.bounced']);
      await worker.stop();
      const lanes = await startWorker({ endpointConcurrency: 4, idlePollMs: 60_000 });
      try {
        for (let i = 0; i < 30; i++) {
          await emitWebhookEvent(
            t.database.db,
            owner.accountId,
            'message.bounced',
            sampleData['message.bounced'] as never,
          );
        }
        await lanes.dispatchOnce();
        await until(async () => receiver.on_path('/fast').length === 30, 'all thirty events at the receiver');
      } finally {
        await lanes.stop();
        worker = await startWorker();
      }
      await settled(owner, ep.id, 30);
    });

    it('a first attempt that succeeds is logged on its delivery row; a later attempt gets its own row', async () => {
      receiver.on('/once', (_n, _req, res) => res.writeHead(200).end('recebido'));
      const ep = await createEndpoint(owner, '/once', ['topup.credited']);
      await emitWebhookEvent(t.database.db, owner.accountId, 'topup.credited', sampleData['topup.credited'] as never);
      const [done] = await settled(owner, ep.id, 1);
      expect([done?.status, done?.attempts]).toEqual(['succeeded', 1]);
      expect(done?.attemptLog.map((a) => [a.statusCode, a.responseBody, a.error])).toEqual([[200, 'recebido', null]]);
      const rows = () =>
        t.database.db
          .select()
          .from(webhookAttempts)
          .where(eq(webhookAttempts.deliveryId, done?.id as string));
      expect(await rows()).toHaveLength(0);

      receiver.on('/once', (_n, _req, res) => res.writeHead(200).end('de novo'));
      const again = await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/deliveries/${done?.id}/redeliver`,
        headers: owner.headers,
      });
      expect(again.statusCode).toBe(202);
      await until(
        async () => ((await deliveries(owner, ep.id))[0]?.attempts === 2 ? true : null),
        'the second attempt',
      );
      const [twice] = await settled(owner, ep.id, 1);
      // Newest first: the redelivery (a row of its own), then the first attempt (kept on the delivery).
      expect(twice?.attemptLog.map((a) => a.responseBody)).toEqual(['de novo', 'recebido']);
      expect(await rows()).toHaveLength(1);
    });

    it('claims reach one capacity ahead: the rest waits its turn in due order; a stopping worker gives it back', async () => {
      const held: http.ServerResponse[] = [];
      receiver.on('/ahead', (_n, _req, res) => held.push(res));
      const ep = await createEndpoint(owner, '/ahead', ['campaign.paused']);
      await worker.stop();
      const lanes = await startWorker({ endpointConcurrency: 2, idlePollMs: 60_000 });
      const leased = async () => {
        const rows = await t.database.db
          .select({ claimToken: webhookDeliveries.claimToken })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, ep.id));
        return rows.filter((r) => r.claimToken !== null).length;
      };
      let stopping: Promise<void> | null = null;
      try {
        for (let i = 0; i < 6; i++) {
          await emitWebhookEvent(
            t.database.db,
            owner.accountId,
            'campaign.paused',
            sampleData['campaign.paused'] as never,
          );
        }
        await lanes.dispatchOnce();
        await until(async () => held.length === 2, 'the endpoint to fill its two slots');
        // Two in flight, two more claimed and waiting; the endpoint never gets more than its two at once.
        expect(await leased()).toBe(4);
        expect(receiver.on_path('/ahead')).toHaveLength(2);
        // Stopping: the two waiting are given back at once (no lease to wait out); the two in flight finish.
        stopping = lanes.stop();
        await until(async () => ((await leased()) === 2 ? true : null), 'the waiting claims to be given back');
        for (const res of held.splice(0)) res.writeHead(200).end();
        await stopping;
        expect(receiver.on_path('/ahead')).toHaveLength(2);
      } finally {
        receiver.on('/ahead', (_n, _req, res) => res.writeHead(200).end());
        for (const res of held.splice(0)) res.writeHead(200).end();
        if (!stopping) await lanes.stop();
        worker = await startWorker();
      }
      const done = await settled(owner, ep.id, 6);
      expect(done.map((d) => d.status)).toEqual(Array(6).fill('succeeded'));
      expect(receiver.on_path('/ahead')).toHaveLength(6);
    });

    it('under a slow endpoint, first attempts leave in event order; a retry comes after its back-off, behind later events', async () => {
      let c3Failed = false;
      receiver.on('/ordered', (_n, _req, res, body) => {
        const name = JSON.parse(body).data.name as string;
        // Slow (80 ms per answer); the first attempt of the third event fails.
        const fail = name === 'c3' && !c3Failed;
        if (fail) c3Failed = true;
        setTimeout(() => res.writeHead(fail ? 500 : 200).end(), 80);
      });
      const ep = await createEndpoint(owner, '/ordered', ['campaign.started']);
      await worker.stop();
      const lanes = await startWorker({ endpointConcurrency: 1 });
      try {
        for (let i = 1; i <= 6; i++) {
          await emitWebhookEvent(t.database.db, owner.accountId, 'campaign.started', {
            campaignId: crypto.randomUUID(),
            name: `c${i}`,
            recipients: i,
          } as never);
          // Event order is created_at order, and PGlite's clock_timestamp() ticks in milliseconds: two events in
          // the same millisecond are simultaneous, their relative order undefined.
          await new Promise((r) => setTimeout(r, 2));
        }
        await lanes.dispatchOnce();
        await until(async () => {
          const items = await deliveries(owner, ep.id);
          return items.length === 6 && items.every((d) => d.status === 'succeeded') ? items : null;
        }, 'the six events');
      } finally {
        await lanes.stop();
        worker = await startWorker();
      }
      const order = receiver.on_path('/ordered').map((r) => JSON.parse(r.body).data.name);
      expect(order).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c3']);
    });

    /**
     * `count` messages of the user's account marked sent and the engine's coalesced outbox rows for them, `perBatch`
     * each, as the engine writes them (the hot path: expanded by the dispatcher, deliveries born claimed). Returns
     * the message ids in event order.
     */
    async function engineBatches(user: SignedInUser, count: number, perBatch: number): Promise<string[]> {
      const db = t.database.db;
      await creditAccount(db, user.accountId, 10_000_000);
      const tag = crypto.randomUUID().slice(0, 8);
      const emails = Array.from({ length: count }, (_, i) => `m${i}-${tag}@exemplo.com.br`);
      const { listId } = await createListWithContacts(db, user.accountId, emails, { cidade: 'Recife' });
      const campaignId = await createReadyCampaign(db, user.accountId, { includeListIds: [listId] });
      await startCampaignSend(db, user.accountId, campaignId, null);
      await db.execute(sql`update messages set status = 'sent', sent_at = now() where campaign_id = ${campaignId}`);
      const ids = (
        await queryRows<{ id: string }>(
          db,
          sql`select id::text as id from messages where campaign_id = ${campaignId} order by id`,
        )
      ).map((r) => r.id);
      for (let i = 0; i < ids.length; i += perBatch) {
        await db.execute(
          sql`insert into webhook_event_batches (account_id, type, message_ids)
              values (${user.accountId}, 'message.delivered', ${`{${ids.slice(i, i + perBatch).join(',')}}`}::bigint[])`,
        );
      }
      return ids;
    }
    const messageIdOf = (r: { body: string }) => (JSON.parse(r.body) as { data: { messageId: string } }).data.messageId;

    it('deliveries born claimed by three workers: every engine event once; a hung endpoint of another account holds only its slots', async () => {
      const hung: http.ServerResponse[] = [];
      receiver.on('/born-hung', (_n, _req, res) => hung.push(res));
      const live = await createEndpoint(owner, '/born-live', ['message.delivered']);
      const stuck = await createEndpoint(other, '/born-hung', ['message.delivered']);
      await worker.stop();
      // A lease longer than the test: what a hung attempt holds is not taken again by another worker meanwhile.
      const workers = await Promise.all(
        [1, 2, 3].map(() => startWorker({ endpointConcurrency: 2, timeoutMs: 60_000, leaseSeconds: 300 })),
      );
      try {
        const liveIds = await engineBatches(owner, 150, 20);
        const stuckIds = await engineBatches(other, 30, 10);
        // The three dispatchers race for the outbox rows; each worker's lanes take what its dispatcher has room for.
        await Promise.all(workers.map((w) => w.dispatchOnce()));
        await until(async () => {
          await Promise.all(workers.map((w) => w.dispatchOnce()));
          return receiver.on_path('/born-live').length >= 150;
        }, 'every live event at the receiver');
        const got = receiver.on_path('/born-live');
        expect(got).toHaveLength(150);
        expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(150);
        expect(got.map(messageIdOf).sort()).toEqual([...liveIds].sort());
        // The hung endpoint got at most its two slots in each worker; none of it settled.
        expect(receiver.on_path('/born-hung').length).toBeLessThanOrEqual(6);
        expect((await deliveries(other, stuck.id)).every((d) => d.status === 'pending')).toBe(true);
        // It comes back: every one of its events arrives, once.
        receiver.on('/born-hung', (_n, _req, res) => res.writeHead(200).end());
        for (const res of hung.splice(0)) res.writeHead(200).end();
        await until(async () => {
          await Promise.all(workers.map((w) => w.dispatchOnce()));
          const items = await deliveries(other, stuck.id);
          return items.length === 30 && items.every((d) => d.status === 'succeeded') ? items : null;
        }, 'the hung endpoint to be served');
        const late = receiver.on_path('/born-hung');
        expect(late).toHaveLength(30);
        expect(late.map(messageIdOf).sort()).toEqual([...stuckIds].sort());
        const liveDone = await deliveries(owner, live.id, '?limit=200');
        expect(liveDone.filter((d) => d.status === 'succeeded' && d.attempts === 1)).toHaveLength(150);
        // Room for the tests after this one (an account has a limited number of endpoints).
        for (const [user, id] of [
          [owner, live.id],
          [other, stuck.id],
        ] as const) {
          const res = await t.app.inject({
            method: 'DELETE',
            url: `/api/webhooks/endpoints/${id}`,
            headers: user.headers,
          });
          expect(res.statusCode).toBe(204);
        }
      } finally {
        receiver.on('/born-hung', (_n, _req, res) => res.writeHead(200).end());
        for (const res of hung.splice(0)) res.writeHead(200).end();
        await Promise.all(workers.map((w) => w.stop()));
        worker = await startWorker();
      }
    });

    it('engine events to a slow endpoint: first attempts leave in event order, born claimed or claimed; a retry follows', async () => {
      let failed = false;
      receiver.on('/born-ordered', (n, _req, res) => {
        const fail = n === 7 && !failed;
        if (fail) failed = true;
        setTimeout(() => res.writeHead(fail ? 500 : 200).end(), 5);
      });
      const ep = await createEndpoint(owner, '/born-ordered', ['message.delivered']);
      await worker.stop();
      // One slot: requests leave one at a time. Room for two at birth: most of each round goes through claims.
      const lanes = await startWorker({ endpointConcurrency: 1 });
      try {
        const ids = await engineBatches(owner, 40, 10);
        await until(async () => {
          await lanes.dispatchOnce();
          const items = await deliveries(owner, ep.id);
          return items.length === 40 && items.every((d) => d.status === 'succeeded') ? items : null;
        }, 'the forty events');
        const order = receiver.on_path('/born-ordered').map(messageIdOf);
        expect(order).toHaveLength(41);
        const firsts = order.filter((id, i) => order.indexOf(id) === i);
        expect(firsts).toEqual(ids);
        expect(order.lastIndexOf(ids[7] as string)).toBeGreaterThan(7);
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/webhooks/endpoints/${ep.id}`,
          headers: owner.headers,
        });
        expect(res.statusCode).toBe(204);
      } finally {
        await lanes.stop();
        worker = await startWorker();
      }
    });

    it('a 410 from a slow endpoint disables it: what was in flight ends, everything still pending fails at once', async () => {
      receiver.on('/slow-gone', (_n, _req, res) => {
        setTimeout(() => res.writeHead(410).end(), 150);
      });
      const ep = await createEndpoint(owner, '/slow-gone', ['message.bounced']);
      await worker.stop();
      const lanes = await startWorker({ endpointConcurrency: 3 });
      try {
        for (let i = 0; i < 8; i++) {
          await emitWebhookEvent(
            t.database.db,
            owner.accountId,
            'message.bounced',
            sampleData['message.bounced'] as never,
          );
        }
        await lanes.dispatchOnce();
        await until(async () => {
          const items = await deliveries(owner, ep.id);
          return items.length === 8 && items.every((d) => d.status === 'failed') ? items : null;
        }, 'every delivery to fail');
      } finally {
        await lanes.stop();
        worker = await startWorker();
      }
      const items = await deliveries(owner, ep.id);
      const requests = receiver.on_path('/slow-gone');
      // Only what was in flight when the first 410 came back left: at most the endpoint's three slots.
      expect(requests.length).toBeGreaterThanOrEqual(1);
      expect(requests.length).toBeLessThanOrEqual(3);
      const answered = items.filter((d) => d.attemptLog.some((a) => a.statusCode === 410));
      const cancelled = items.filter((d) =>
        d.attemptLog.some((a) => a.error === 'Endpoint desativado: entrega cancelada.'),
      );
      expect(answered).toHaveLength(requests.length);
      expect(cancelled.length).toBeGreaterThanOrEqual(8 - requests.length);
      const [row] = await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
      expect(row?.enabled).toBe(false);
    });

    it('test event, secret reveal and rotation (both secrets sign for 24 h), edit, disable and delete', async () => {
      const ep = await createEndpoint(owner, '/manage', ['message.clicked']);
      const test = await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/endpoints/${ep.id}/test`,
        headers: owner.headers,
      });
      expect(test.statusCode).toBe(202);
      const [d] = await settled(owner, ep.id, 1);
      expect([d?.eventType, d?.status]).toEqual(['webhook.test', 'succeeded']);

      const rotated = await t.app.inject({
        method: 'POST',
        url: `/api/webhooks/endpoints/${ep.id}/secret/rotate`,
        headers: owner.headers,
      });
      expect(rotated.statusCode).toBe(200);
      expect(rotated.json().previousSecret).toBe(ep.secret);
      expect(rotated.json().secret).not.toBe(ep.secret);
      await t.app.inject({ method: 'POST', url: `/api/webhooks/endpoints/${ep.id}/test`, headers: owner.headers });
      await settled(owner, ep.id, 2);
      const last = receiver.on_path('/manage').at(-1) as Received;
      expect(new Webhook(ep.secret).verify(last.body, last.headers)).toBeTruthy();
      expect(new Webhook(rotated.json().secret).verify(last.body, last.headers)).toBeTruthy();

      const patch = await t.app.inject({
        method: 'PATCH',
        url: `/api/webhooks/endpoints/${ep.id}`,
        headers: owner.headers,
        payload: { enabled: false, eventTypes: ['message.clicked', 'message.opened'] },
      });
      expect(patch.statusCode).toBe(200);
      expect(patch.json()).toMatchObject({ enabled: false, eventTypes: ['message.clicked', 'message.opened'] });
      const foreignPatch = await t.app.inject({
        method: 'PATCH',
        url: `/api/webhooks/endpoints/${ep.id}`,
        headers: other.headers,
        payload: { enabled: true },
      });
      expect(foreignPatch.statusCode).toBe(404);
      const foreignSecret = await t.app.inject({
        method: 'GET',
        url: `/api/webhooks/endpoints/${ep.id}/secret`,
        headers: other.headers,
      });
      expect(foreignSecret.statusCode).toBe(404);
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/webhooks/endpoints/${ep.id}`,
        headers: owner.headers,
      });
      expect(del.statusCode).toBe(204);
    });
  });
});
