import type { PeriodicJob } from '../../jobs/periodic-jobs';
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

/** The worker's automations tick (every AUTOMATIONS_TICK_MS): enrollments and run rows are keyed, so workers never double a step. */
export function automationsJob(deps: AutomationDeps & { tickMs: number }): PeriodicJob {
  return { name: 'automations.tick', everyMs: deps.tickMs, run: (now) => tickAutomations(deps, now) };
}
