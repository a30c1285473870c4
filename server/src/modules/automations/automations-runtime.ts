import type { Logger } from 'pino';
import { enrollDateTriggers, enrollListJoins, exitUnsubscribed } from './enroll';
import { type AutomationDeps, runDueSteps } from './run-steps';

export interface AutomationTickResult {
  enrolled: number;
  exited: number;
  sent: number;
}

/**
 * One pass of the automations worker at `now` (tests pass their own clock): enroll list joins and today's
 * dates, exit whoever unsubscribed, then send the due steps.
 */
export async function tickAutomations(deps: AutomationDeps, now: Date = new Date()): Promise<AutomationTickResult> {
  const enrolled = (await enrollListJoins(deps.db, now)) + (await enrollDateTriggers(deps.db, now));
  const exited = await exitUnsubscribed(deps.db, now);
  const sent = await runDueSteps(deps, now);
  return { enrolled, exited, sent };
}

/** The worker's periodic automations tick (every AUTOMATIONS_TICK_MS); one pass at a time per process. */
export function startAutomationsWorker(options: AutomationDeps & { tickMs: number; logger: Logger }): {
  stop(): Promise<void>;
} {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = tickAutomations(options)
      .catch((error) => options.logger.warn({ err: error }, 'automations tick failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.tickMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
