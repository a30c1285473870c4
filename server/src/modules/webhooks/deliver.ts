import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';
import type { Mailer } from '../../mail/mailer';
import { findAccountOwner } from '../accounts/account-directory';
import { activeSecrets } from './endpoints';
import { type PostResult, postWebhook } from './post-webhook';
import { type SecretBox, webhookHeaders } from './signing';
import { type GuardOptions, UnsafeWebhookUrl, type VettedTarget, vetWebhookUrl } from './ssrf-guard';
import { webhookEndpoints } from './webhooks.db';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What an HTTP answer (or its absence) means: Standard Webhooks and ADR 0015. */
export function classifyAnswer(statusCode: number | null): 'success' | 'retry' | 'stop' | 'gone' {
  if (statusCode === null) return 'retry';
  if (statusCode >= 200 && statusCode < 300) return 'success';
  if (statusCode === 410) return 'gone';
  if (statusCode === 408 || statusCode === 429) return 'retry';
  if (statusCode >= 400 && statusCode < 500) return 'stop';
  return 'retry';
}

export interface RetryPolicy {
  /** Retries after the first attempt of a run. */
  limit: number;
  delaySeconds: number;
  maxDelaySeconds: number;
}

/**
 * The wait before retry number `retry` (1-based) of a run: the first delay doubled at each retry, capped, with
 * ± 10 % jitter so the deliveries of one outage do not all come back in the same second. With the defaults
 * (60 s, cap 6 h, 12 retries) the retries span about a day.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, random = Math.random): number {
  const base = Math.min(policy.maxDelaySeconds, policy.delaySeconds * 2 ** Math.max(0, retry - 1)) * 1000;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** A due delivery a worker claimed: what one attempt needs. */
export interface ClaimedDelivery {
  id: string;
  claimToken: string;
  endpointId: string;
  /** The endpoint's account: the lanes give each account a share of the process (WEBHOOKS_ACCOUNT_CONCURRENCY). */
  accountId: string;
  eventId: string;
  eventType: string;
  /** Attempts of this run so far (0 on the first attempt). */
  runAttempts: number;
  /** The event's payload as the JSON text that is signed and sent (PostgreSQL's jsonb text: no parse, no stringify). */
  body: string;
  endpoint: ClaimedEndpoint;
  /** Where it sat in its endpoint's due order when claimed: the next claim for the endpoint may start there. */
  dueKey: DueKey;
}

/** What an attempt needs of its endpoint, read by the claim statement itself. */
export type ClaimedEndpoint = Pick<
  typeof webhookEndpoints.$inferSelect,
  'enabled' | 'url' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt'
>;

/** The columns every statement that hands out deliveries reads: the claim, and the dispatcher's births. */
export interface DeliveryRow {
  endpoint_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  body: string;
  due_at: string;
  due_created: string;
  enabled: boolean;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | string | null;
}

function endpointOfRow(r: DeliveryRow): ClaimedEndpoint {
  return {
    enabled: r.enabled,
    url: r.url,
    secretCiphertext: r.secret_ciphertext,
    previousSecretCiphertext: r.previous_secret_ciphertext,
    previousSecretExpiresAt: r.previous_secret_expires_at ? new Date(r.previous_secret_expires_at) : null,
  };
}

export function deliveryOfRow(
  r: DeliveryRow,
  id: string,
  claimToken: string,
  runAttempts: number,
  endpoint: ClaimedEndpoint = endpointOfRow(r),
): ClaimedDelivery {
  return {
    id,
    claimToken,
    endpointId: r.endpoint_id,
    accountId: r.account_id,
    eventId: r.event_id,
    eventType: r.event_type,
    runAttempts,
    body: r.body,
    endpoint,
    dueKey: { at: r.due_at, created: r.due_created },
  };
}

/**
 * A position in an endpoint's due order (next_attempt_at, created_at), as PostgreSQL's own text so no precision is
 * lost on the way through JavaScript.
 */
export interface DueKey {
  at: string;
  created: string;
}

/**
 * Claims due pending deliveries (FOR UPDATE SKIP LOCKED: any number of workers), per endpoint at most
 * `perEndpoint` minus what this worker already has in flight for it (`busy`), `total` at most, endpoints in a
 * random order so none starves the others. Each claimed delivery gets `claimToken` and is pushed one lease
 * ahead: a worker that dies mid-attempt leaves it due again when the lease ends (a live worker whose attempt
 * outlasts the lease does not take it a second time: `held`). Returns each delivery with its event's payload and
 * its endpoint, in due order.
 */
export async function claimDueDeliveries(
  db: Db,
  options: {
    claimToken: string;
    leaseSeconds: number;
    perEndpoint: number;
    total: number;
    busy: Map<string, number>;
    /** Deliveries this worker still holds (attempting, or their outcome not recorded yet): never claimed twice. */
    held?: ReadonlySet<string>;
    /**
     * Per endpoint, the due key of the last delivery this worker claimed for it while more were waiting: the scan
     * starts there instead of at the oldest entry. The index keeps an entry for every version a claim or an outcome
     * left behind until VACUUM, all older than the backlog still due; without a start, every claim walked all of
     * them (a backlog of 100,000 deliveries turned each claim into a scan of the whole past run).
     */
    after?: ReadonlyMap<string, DueKey>;
  },
): Promise<ClaimedDelivery[]> {
  const busyIds = [...options.busy.keys()];
  const busyCounts = busyIds.map((id) => String(options.busy.get(id) ?? 0));
  const afterIds = [...(options.after?.keys() ?? [])];
  const afterAt = afterIds.map((id) => options.after?.get(id)?.at ?? '-infinity');
  const afterCreated = afterIds.map((id) => options.after?.get(id)?.created ?? '-infinity');
  // Planned at each call, never a named statement's kept plan: the queue and event tables change size by orders of
  // magnitude within one campaign, and a generic plan made while they were empty scanned all of them per claimed
  // delivery (a claim of 4,096 took 77 s at 48,000 deliveries, in the webhooks benchmark).
  const rows = await queryRows<DeliveryRow & { id: string; run_attempts: number }>(
    db,
    // Both ends of the scan are index conditions on webhook_deliveries_due_idx: the start (the endpoint's `after`
    // key, or the beginning) and the end (now, computed once: a volatile clock_timestamp() in the WHERE would be a
    // filter, and the scan would walk on through every entry leased into the future).
    sql`with recursive busy as (
          select * from unnest(${pgTextArray(busyIds)}::uuid[], ${pgTextArray(busyCounts)}::int[]) as b(endpoint_id, n)),
        -- The endpoints with a pending delivery, one descent of webhook_deliveries_due_idx each (a skip scan): a
        -- claim costs what the endpoints with work cost, not every endpoint in the database (each was an index probe,
        -- ~1 µs: 21–29 ms per claim at 20,000 endpoints with nothing due, every idle poll of every worker).
        pending(endpoint_id) as (
          -- Ordered as that index is (endpoint, due time): the planner may not walk the full endpoint index instead,
          -- through every settled delivery not vacuumed yet (12 ms per claim at 20,000 of them).
          (select d.endpoint_id from webhook_deliveries d where d.status = 'pending'
            order by d.endpoint_id, d.next_attempt_at limit 1)
          union all
          select (select d.endpoint_id from webhook_deliveries d
                   where d.status = 'pending' and d.endpoint_id > p.endpoint_id
                   order by d.endpoint_id, d.next_attempt_at limit 1)
            from pending p where p.endpoint_id is not null),
        after as (
          select * from unnest(${pgTextArray(afterIds)}::uuid[], ${pgTextArray(afterAt)}::timestamptz[],
                               ${pgTextArray(afterCreated)}::timestamptz[]) as a(endpoint_id, at, created)),
        -- What the result returns is read here, before the update (which cannot return a row's due key: the
        -- lease overwrites it): the result reads picked alone. Joined back to the update's rows, the planner — which
        -- knows nothing of a CTE's size — could make a nested loop of the claim over itself (4,096 × 4,096).
        picked as (
          select d.id, d.endpoint_id, d.event_id, d.event_type, d.run_attempts, d.next_attempt_at as due_at,
                 d.created_at as due_created, e.account_id, e.enabled, e.url, e.secret_ciphertext,
                 e.previous_secret_ciphertext, e.previous_secret_expires_at
            from (select e.*, greatest(${options.perEndpoint}::int - coalesce(busy.n, 0), 0) as room,
                         coalesce(after.at, '-infinity') as after_at, coalesce(after.created, '-infinity') as after_created
                    from pending join webhook_endpoints e on e.id = pending.endpoint_id
                         left join busy on busy.endpoint_id = e.id
                         left join after on after.endpoint_id = e.id
                   order by random()) e
            cross join lateral (
              select d.id, d.endpoint_id, d.event_id, d.event_type, d.run_attempts, d.next_attempt_at, d.created_at
                from webhook_deliveries d
               where d.endpoint_id = e.id and d.status = 'pending'
                 and (d.next_attempt_at, d.created_at) >= (e.after_at, e.after_created)
                 and d.next_attempt_at <= (select clock_timestamp())
                 -- Computed once (an InitPlan): as a bare parameter cast, a generic plan parsed the array again
                 -- for every row it tested.
                 and d.id <> all(array(select unnest(${pgTextArray([...(options.held ?? [])])}::uuid[])))
               order by d.next_attempt_at, d.created_at
               limit e.room
               for update skip locked) d
           limit ${options.total}::int),
        -- Every picked row is locked by this statement and updated by primary key: the claim is exactly picked.
        claimed as (
          update webhook_deliveries d
             set claim_token = ${options.claimToken}::uuid,
                 next_attempt_at = clock_timestamp() + make_interval(secs => ${options.leaseSeconds}::int)
           -- By primary key, whatever the plan guesses of picked's size (a join can turn into a hash join over a
           -- scan of every delivery: 2,509 buffers per claim of 256 at 20,000, EXPLAIN on a kept bench database).
           where d.id = any(array(select id from picked)))
        select p.id, p.endpoint_id, p.event_id, p.event_type, p.run_attempts, ev.payload::text as body,
               p.due_at::text as due_at, p.due_created::text as due_created,
               p.account_id, p.enabled, p.url, p.secret_ciphertext, p.previous_secret_ciphertext,
               p.previous_secret_expires_at
          -- One primary-key probe per claimed delivery whatever the estimates.
          from picked p cross join lateral (select payload from webhook_events where id = p.event_id) ev
         order by p.due_at, p.due_created`,
  );
  // The endpoint comes with its deliveries (one statement per claim); one object per endpoint and claim.
  const endpoints = new Map<string, ClaimedEndpoint>();
  const claimed: ClaimedDelivery[] = [];
  for (const r of rows) {
    let endpoint = endpoints.get(r.endpoint_id);
    if (!endpoint) {
      endpoint = endpointOfRow(r);
      endpoints.set(r.endpoint_id, endpoint);
    }
    claimed.push(deliveryOfRow(r, r.id, options.claimToken, Number(r.run_attempts), endpoint));
  }
  return claimed;
}

/**
 * Gives back claimed deliveries that were never attempted (a stopping worker's queue): each is due again at once,
 * at its place in the due order (the lease undone). Only while still held by the same claim.
 */
export async function releaseClaims(db: Db, deliveries: ClaimedDelivery[]): Promise<void> {
  await db.execute(
    sql`update webhook_deliveries d set next_attempt_at = r.due_at, claim_token = null
          from unnest(${pgTextArray(deliveries.map((d) => d.id))}::uuid[],
                      ${pgTextArray(deliveries.map((d) => d.claimToken))}::uuid[],
                      ${pgTextArray(deliveries.map((d) => d.dueKey.at))}::timestamptz[]) as r(id, token, due_at)
         where d.id = r.id and d.claim_token = r.token and d.status = 'pending'`,
  );
}

/** How one attempt ended, as the outcome statement records it. */
export interface AttemptOutcome {
  deliveryId: string;
  claimToken: string;
  endpointId: string;
  attemptedAt: Date;
  result: PostResult;
  /** succeeded; pending = a retry is due at `retryAt`; failed = for good. */
  status: 'succeeded' | 'pending' | 'failed';
  retryAt: Date | null;
  /** What the endpoint's record must learn: a success clears its failure streak; 410 disables it. */
  effect: 'success' | 'failure' | 'gone' | 'none';
}

/** Vetted targets and keep-alive agents per endpoint, shared by one worker's attempts. */
export class EndpointConnections {
  private readonly vetted = new Map<string, { at: number; target: VettedTarget; agent: http.Agent }>();

  constructor(
    private readonly guard: GuardOptions,
    private readonly socketsPerEndpoint: number,
    /** How long a vetted address is reused before the URL is resolved and vetted again. */
    private readonly revetMs = 30_000,
  ) {}

  /**
   * The vetted target of an endpoint URL (SSRF guard; throws UnsafeWebhookUrl) and a keep-alive agent that
   * connects only to that address. Re-vetted every `revetMs`: a DNS change takes effect then, and the agent of
   * the old address is closed.
   */
  async target(endpointId: string, url: string): Promise<{ target: VettedTarget; agent: http.Agent }> {
    const key = `${endpointId} ${url}`;
    const cached = this.vetted.get(key);
    if (cached && Date.now() - cached.at < this.revetMs) return cached;
    const target = await vetWebhookUrl(url, this.guard);
    if (cached && cached.target.address === target.address) {
      cached.at = Date.now();
      return cached;
    }
    cached?.agent.destroy();
    const options = { keepAlive: true, maxSockets: this.socketsPerEndpoint, maxFreeSockets: this.socketsPerEndpoint };
    const agent = target.url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    const entry = { at: Date.now(), target, agent };
    this.vetted.set(key, entry);
    return entry;
  }

  close(): void {
    for (const { agent } of this.vetted.values()) agent.destroy();
    this.vetted.clear();
  }
}

export interface AttemptDeps {
  box: SecretBox;
  connections: EndpointConnections;
  timeoutMs: number;
  retry: RetryPolicy;
}

/**
 * One attempt of a claimed delivery — no database: a disabled endpoint cancels it (test events still go); the
 * URL is vetted (SSRF, the connection goes to the vetted address), the body signed with every active secret and
 * POSTed; the answer decides: success; 410 (failed, the endpoint will be disabled); other 4xx (failed); a
 * retryable failure (timeout, connection, 3xx, 5xx, 408, 429) is retried after its back-off while the run's
 * budget lasts.
 */
export async function attemptDelivery(deps: AttemptDeps, delivery: ClaimedDelivery): Promise<AttemptOutcome> {
  const attemptedAt = new Date();
  const base = {
    deliveryId: delivery.id,
    claimToken: delivery.claimToken,
    endpointId: delivery.endpointId,
    attemptedAt,
  };
  const failed = (error: string, effect: AttemptOutcome['effect']): AttemptOutcome => ({
    ...base,
    result: { statusCode: null, durationMs: 0, error, responseBody: '' },
    status: 'failed',
    retryAt: null,
    effect,
  });
  if (!delivery.endpoint.enabled && delivery.eventType !== 'webhook.test') {
    return failed('Endpoint desativado: entrega cancelada.', 'none');
  }
  let connection: Awaited<ReturnType<EndpointConnections['target']>>;
  try {
    connection = await deps.connections.target(delivery.endpointId, delivery.endpoint.url);
  } catch (error) {
    if (!(error instanceof UnsafeWebhookUrl)) throw error;
    return failed(`URL recusada: ${error.message}`, 'failure');
  }
  const body = delivery.body;
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const headers = webhookHeaders(
    activeSecrets(deps.box, delivery.endpoint, attemptedAt),
    delivery.eventId,
    timestamp,
    body,
  );
  const result = await postWebhook(connection.target, body, headers, deps.timeoutMs, connection.agent);
  const verdict = classifyAnswer(result.statusCode);
  if (verdict === 'success') return { ...base, result, status: 'succeeded', retryAt: null, effect: 'success' };
  if (verdict === 'gone') return { ...base, result, status: 'failed', retryAt: null, effect: 'gone' };
  const retry = delivery.runAttempts + 1;
  if (verdict === 'retry' && retry <= deps.retry.limit) {
    const retryAt = new Date(attemptedAt.getTime() + retryDelayMs(deps.retry, retry));
    return { ...base, result, status: 'pending', retryAt, effect: 'failure' };
  }
  return { ...base, result, status: 'failed', retryAt: null, effect: 'failure' };
}

/**
 * Records a batch of attempt outcomes in ONE statement: each delivery settled or rescheduled — only while it is
 * pending and still held by the same claim, so a late attempt of a claim whose lease ran out never overrides the
 * claim that followed (a late success still settles it: the receiver did get the event) —, the attempt in the
 * delivery log — on the delivery row itself (`first_attempt`) when it is the delivery's first and it succeeded,
 * else one `webhook_attempts` row —, and the failure streak of every endpoint that answered a success in the
 * batch cleared. Deliveries deleted meanwhile (their endpoint was) are skipped.
 */
export async function recordAttempts(db: Db, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const col = (pick: (o: AttemptOutcome) => string | null) => pgTextArray(outcomes.map(pick));
  const succeededEndpoints = [...new Set(outcomes.filter((o) => o.effect === 'success').map((o) => o.endpointId))];
  // Planned at each call, as the claim is (a kept generic plan made while the table was empty hashed every pending
  // delivery to settle a few dozen).
  await queryRows(
    db,
    sql`with o as (
          select u.id::uuid as id, u.token::uuid as token, u.status, u.code::int as code, u.at::timestamptz as at,
                 u.retry_at::timestamptz as retry_at, u.duration::int as duration, u.error, u.body
            from unnest(${col((o) => o.deliveryId)}::text[], ${col((o) => o.claimToken)}::text[],
                        ${col((o) => o.status)}::text[],
                        ${col((o) => (o.result.statusCode === null ? null : String(o.result.statusCode)))}::text[],
                        ${col((o) => o.attemptedAt.toISOString())}::text[],
                        ${col((o) => o.retryAt?.toISOString() ?? null)}::text[],
                        ${col((o) => String(o.result.durationMs))}::text[], ${col((o) => o.result.error)}::text[],
                        ${col((o) => o.result.responseBody)}::text[])
                 as u(id, token, status, code, at, retry_at, duration, error, body)),
        settled as (
          update webhook_deliveries d
             set status = o.status, attempts = d.attempts + 1, run_attempts = d.run_attempts + 1,
                 last_status_code = o.code, last_attempt_at = o.at,
                 next_attempt_at = coalesce(o.retry_at, d.next_attempt_at), claim_token = null,
                 first_attempt = case when d.attempts = 0 and o.status = 'succeeded'
                                      then jsonb_build_object('attemptedAt', o.at, 'statusCode', o.code,
                                                              'durationMs', o.duration, 'responseBody', o.body)
                                      else d.first_attempt end
            from o
           where d.id = o.id and d.status = 'pending' and (d.claim_token = o.token or o.status = 'succeeded')
          returning d.id, d.first_attempt is not null and d.attempts = 1 as inline),
        logged as (
          insert into webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, error, response_body)
          select o.id, o.at, o.code, o.duration, o.error, o.body
            from o where exists (select 1 from webhook_deliveries x where x.id = o.id)
                     and not exists (select 1 from settled s where s.id = o.id and s.inline)
          returning 1),
        healed as (
          update webhook_endpoints set failing_since = null
           where id = any(${pgTextArray(succeededEndpoints)}::uuid[]) and failing_since is not null
          returning 1)
        select (select count(*) from settled)::int as settled, (select count(*) from logged)::int as logged,
               (select count(*) from healed)::int as healed`,
  );
}

export interface EndpointEffectDeps {
  db: Db;
  mailer: Mailer | null;
  logger: Pick<Logger, 'warn' | 'info' | 'error'>;
  disableAfterHours: number;
  publicUrl: string;
}

/**
 * What a batch of outcomes means for the endpoints: a 410 disables its endpoint; any other failure starts or
 * extends the endpoint's failure streak (from its earliest failed attempt), and a streak longer than
 * disableAfterHours disables it too. Once per endpoint per batch.
 */
export async function applyEndpointEffects(deps: EndpointEffectDeps, outcomes: AttemptOutcome[]): Promise<void> {
  const gone = new Set<string>();
  const failing = new Map<string, Date>();
  for (const o of outcomes) {
    if (o.effect === 'gone') gone.add(o.endpointId);
    if (o.effect === 'failure') {
      const first = failing.get(o.endpointId);
      if (!first || o.attemptedAt < first) failing.set(o.endpointId, o.attemptedAt);
    }
  }
  for (const endpointId of gone) {
    await disableEndpoint(deps, endpointId, 'O endpoint respondeu 410 (Gone): desativado automaticamente.');
  }
  for (const [endpointId, at] of failing) {
    if (!gone.has(endpointId)) await noteFailure(deps, endpointId, at);
  }
}

/** Starts or extends the endpoint's failure streak; past disableAfterHours disables it. Returns whether it did. */
async function noteFailure(deps: EndpointEffectDeps, endpointId: string, now: Date): Promise<boolean> {
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

/**
 * Disables an enabled endpoint (once): its pending deliveries (test events aside) fail at once with a line in
 * their log, instead of waiting for their next retry to be cancelled; the account owner gets an e-mail.
 */
async function disableEndpoint(deps: EndpointEffectDeps, endpointId: string, reason: string): Promise<boolean> {
  const [endpoint] = await deps.db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
    .returning();
  if (!endpoint) return false;
  deps.logger.warn({ endpointId, accountId: endpoint.accountId }, 'webhook endpoint disabled');
  await queryRows(
    deps.db,
    sql`with cancelled as (
          update webhook_deliveries set status = 'failed', claim_token = null
           where endpoint_id = ${endpointId} and status = 'pending' and event_type <> 'webhook.test'
          returning id)
        insert into webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, error, response_body)
        select id, clock_timestamp(), null, 0, 'Endpoint desativado: entrega cancelada.', '' from cancelled
        returning 1`,
  );
  const owner = await findAccountOwner(deps.db, endpoint.accountId);
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

/** A fresh claim token (one per claim round: it names the lease the round's deliveries are held under). */
export function newClaimToken(): string {
  return randomUUID();
}
