import { fromPglite, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/database';

export type JobQueue = PgBoss;

/**
 * pg-boss on the application's own database: the PGlite adapter in embedded mode, a separate small pool
 * on PostgreSQL. Queues carry ids only; the tables stay the source of truth.
 */
export async function startJobQueue(
  database: Database,
  options: { logger: Logger; connectionString?: string; schedule: boolean },
): Promise<JobQueue> {
  // The supervisor fails the jobs of dead workers (heartbeat or expiry missed) so another worker takes them: every
  // 10 s rather than pg-boss's 60, so an import whose worker died is retried within seconds.
  const supervision = { schedule: options.schedule, superviseIntervalSeconds: 10 };
  const boss = database.pglite
    ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', ...supervision })
    : new PgBoss({ connectionString: options.connectionString, max: 4, ...supervision });
  boss.on('error', (error) => options.logger.error({ err: error }, 'job queue error'));
  await boss.start();
  return boss;
}
