import { createHash, timingSafeEqual } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { CAMPAIGN_STATUSES } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Db, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { Counter, EXPOSITION_CONTENT_TYPE, formatFamily, Histogram, type Sample } from './exposition';

export interface MetricsOptions {
  db: Db;
  /** 'loopback' (default: direct loopback clients only), 'open' (anyone), 'off' (404). */
  access: 'loopback' | 'open' | 'off';
  /** Bearer token that opens /metrics to any client (and is required in 'open' mode when set). */
  token?: string | undefined;
  /** Database gauges are read at most this often (ms); several scrapers then cost one query. */
  databaseCacheMs?: number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'];

/** A direct loopback connection: the socket's own address (never X-Forwarded-For) and no proxy headers. */
export function isDirectLoopback(request: FastifyRequest): boolean {
  const address = request.socket?.remoteAddress ?? '';
  if (!LOOPBACK.has(address) && !address.startsWith('127.')) return false;
  return !PROXY_HEADERS.some((name) => request.headers[name] !== undefined);
}

function tokenMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match?.[1]) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}

function mayScrape(request: FastifyRequest, opts: MetricsOptions): boolean {
  if (opts.access === 'off') return false;
  if (opts.token && tokenMatches(request, opts.token)) return true;
  if (opts.access === 'open') return !opts.token;
  return isDirectLoopback(request);
}

interface DatabaseGauges {
  up: boolean;
  campaignsByStatus: Map<string, number>;
  messagesInFlight: number;
  messagesPending: number;
}

/**
 * Gauges read from the database at scrape time, cheaply: campaigns by status (a small table, indexed by
 * status), messages being delivered right now (the id span of the batches in flight, an upper bound, from the
 * partial index on batches in status sending), and messages still to deliver in sending/paused campaigns from
 * the campaign counters (no scan of the messages table).
 */
async function readDatabaseGauges(db: Db): Promise<DatabaseGauges> {
  const [byStatus, inFlight, pending] = await Promise.all([
    queryRows<{ status: string; n: number | string }>(
      db,
      sql`select status, count(*)::int as n from campaigns group by status`,
    ),
    queryRows<{ n: number | string }>(
      db,
      sql`select coalesce(sum(last_message_id - first_message_id + 1), 0)::bigint as n
            from message_batches where status = 'sending'`,
    ),
    queryRows<{ n: number | string | null }>(
      db,
      sql`select coalesce(sum(greatest(recipients_count - sent_count - failed_count, 0)), 0)::bigint as n
          from campaigns where status in ('sending', 'paused')`,
    ),
  ]);
  return {
    up: true,
    campaignsByStatus: new Map(byStatus.map((r) => [r.status, Number(r.n)])),
    messagesInFlight: Number(inFlight[0]?.n ?? 0),
    messagesPending: Number(pending[0]?.n ?? 0),
  };
}

/**
 * Prometheus metrics (product §5 L): HTTP request counts and latencies by route pattern, process and Node.js
 * runtime metrics, and database gauges, at GET /metrics in text format 0.0.4. Registered before the modules so
 * its onResponse hook sees every route.
 */
export function registerMetrics(app: FastifyInstance, opts: MetricsOptions): void {
  const requests = new Counter('carteiro_http_requests_total', 'HTTP requests answered, by method, route and status.');
  const duration = new Histogram(
    'carteiro_http_request_duration_seconds',
    'Time to answer an HTTP request, in seconds, by method and route.',
  );
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  app.addHook('onClose', async () => loop.disable());

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern (/api/templates/:id), never the raw URL: bounded label values.
    const route = request.routeOptions.url ?? 'unmatched';
    const method = request.method;
    requests.inc({ method, route, status: String(reply.statusCode) });
    duration.observe({ method, route }, reply.elapsedTime / 1000);
  });

  const cacheMs = opts.databaseCacheMs ?? 5000;
  let cached: { at: number; value: Promise<DatabaseGauges> } | null = null;
  const databaseGauges = (): Promise<DatabaseGauges> => {
    const now = Date.now();
    if (!cached || now - cached.at >= cacheMs) {
      const value = readDatabaseGauges(opts.db).catch((error: unknown) => {
        app.log.warn({ err: error }, 'metrics: database gauges unavailable');
        cached = null;
        return { up: false, campaignsByStatus: new Map(), messagesInFlight: 0, messagesPending: 0 };
      });
      cached = { at: now, value };
    }
    return cached.value;
  };

  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    if (!mayScrape(request, opts)) throw new AppError('not_found', `Rota não encontrada: GET /metrics`);
    const gauges = await databaseGauges();
    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    const gauge = (name: string, help: string, value: number) =>
      formatFamily(name, 'gauge', help, [{ labels: {}, value }]);
    const lagMean = Number.isNaN(loop.mean) ? 0 : loop.mean / 1e9;
    const body = [
      requests.render(),
      duration.render(),
      gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', memory.rss),
      formatFamily('process_cpu_seconds_total', 'counter', 'User and system CPU time spent, in seconds.', [
        { labels: {}, value: (cpu.user + cpu.system) / 1e6 },
      ]),
      gauge(
        'process_start_time_seconds',
        'Start time of the process since the Unix epoch, in seconds.',
        Math.round(Date.now() / 1000 - process.uptime()),
      ),
      gauge('process_uptime_seconds', 'Time since the process started, in seconds.', process.uptime()),
      gauge('nodejs_heap_size_used_bytes', 'V8 heap used, in bytes.', memory.heapUsed),
      gauge('nodejs_heap_size_total_bytes', 'V8 heap allocated, in bytes.', memory.heapTotal),
      gauge('nodejs_external_memory_bytes', 'Memory of C++ objects bound to JavaScript, in bytes.', memory.external),
      gauge('nodejs_eventloop_lag_seconds', 'Mean event-loop delay since the previous scrape, in seconds.', lagMean),
      gauge(
        'nodejs_eventloop_lag_p99_seconds',
        '99th percentile of the event-loop delay since the previous scrape, in seconds.',
        loop.count > 0 ? loop.percentile(99) / 1e9 : 0,
      ),
      gauge(
        'nodejs_eventloop_lag_max_seconds',
        'Largest event-loop delay since the previous scrape, in seconds.',
        loop.count > 0 ? loop.max / 1e9 : 0,
      ),
      gauge(
        'carteiro_database_up',
        'Whether the database answered the metrics queries (1) or not (0).',
        gauges.up ? 1 : 0,
      ),
    ];
    if (gauges.up) {
      const campaignSamples: Sample[] = CAMPAIGN_STATUSES.map((status) => ({
        labels: { status },
        value: gauges.campaignsByStatus.get(status) ?? 0,
      }));
      body.push(
        formatFamily('carteiro_campaigns', 'gauge', 'Campaigns by status (all accounts).', campaignSamples),
        gauge(
          'carteiro_messages_in_flight',
          'Messages claimed by a worker and being delivered now.',
          gauges.messagesInFlight,
        ),
        gauge(
          'carteiro_messages_pending',
          'Messages of sending or paused campaigns not yet sent or failed (from the campaign counters).',
          gauges.messagesPending,
        ),
      );
    }
    loop.reset();
    return reply.header('cache-control', 'no-store').type(EXPOSITION_CONTENT_TYPE).send(body.join(''));
  });
}
