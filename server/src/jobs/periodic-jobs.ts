import { type Clock, systemClock } from '../clock';

/**
 * A piece of work a process repeats on a timer. State lives in the tables, so a job is safe to run in several
 * processes at once (each job says why where it matters) and `run(now)` is the whole job: tests call it with
 * their own clock instead of waiting on the timer.
 */
export interface PeriodicJob {
  /** Stable name, in logs. */
  name: string;
  everyMs: number;
  run(now: Date): Promise<unknown>;
}

export interface PeriodicJobs {
  /** Starts `job` on its timer in this process. A name is registered once. */
  add(job: PeriodicJob): void;
  /** One run of a registered job now, behind the same overlap guard as its timer (tests, shutdown hooks). */
  runNow(name: string, now?: Date): Promise<void>;
  /** Failed runs per job since start (a run that threw; it is logged and the timer goes on). */
  failures(): Record<string, number>;
  /** Stops every timer and waits for the runs in progress. Safe to call twice. */
  stop(): Promise<void>;
}

interface Entry {
  job: PeriodicJob;
  timer: NodeJS.Timeout;
  running: Promise<void> | null;
  failures: number;
}

/**
 * The process's one registry of periodic jobs (ADR 0034): every loop of a process is registered here by the
 * runtime — never by a route plugin — so each has the same overlap guard (a run still in progress is not
 * doubled), the same failure handling (logged with the job's name and counted, never thrown into a timer) and
 * one stop on shutdown.
 */
/** What the registry logs through (a pino logger fits). */
export interface JobLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export function startPeriodicJobs(logger: JobLogger, clock: Clock = systemClock): PeriodicJobs {
  const entries = new Map<string, Entry>();
  let stopped = false;

  const runEntry = (entry: Entry, now: Date): Promise<void> => {
    if (entry.running) return entry.running;
    entry.running = entry.job
      .run(now)
      .then(
        () => undefined,
        (error: unknown) => {
          entry.failures++;
          logger.warn({ err: error, job: entry.job.name }, `periodic job ${entry.job.name} failed`);
        },
      )
      .finally(() => {
        entry.running = null;
      });
    return entry.running;
  };

  return {
    add(job) {
      if (stopped) throw new Error(`periodic jobs stopped: cannot add ${job.name}`);
      if (entries.has(job.name)) throw new Error(`periodic job ${job.name} is already registered`);
      const timer = setInterval(() => void runEntry(entry, clock()), job.everyMs);
      // Timers never keep a process alive: shutdown is stop(), not waiting for the next tick.
      timer.unref();
      const entry: Entry = { job, timer, running: null, failures: 0 };
      entries.set(job.name, entry);
    },
    runNow(name, now = clock()) {
      const entry = entries.get(name);
      if (!entry) throw new Error(`no periodic job named ${name}`);
      return runEntry(entry, now);
    },
    failures() {
      return Object.fromEntries([...entries].map(([name, entry]) => [name, entry.failures]));
    },
    async stop() {
      stopped = true;
      for (const entry of entries.values()) clearInterval(entry.timer);
      await Promise.all([...entries.values()].map((entry) => entry.running));
    },
  };
}
