import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJobs } from './periodic-jobs';

function recordingLogger() {
  const warnings: Array<{ job: unknown; message: string }> = [];
  return {
    warnings,
    warn: (details: Record<string, unknown>, message: string) => {
      warnings.push({ job: details.job, message });
    },
  };
}

/** A job whose runs stay open until the test lets them end. */
function gatedJob(name: string, everyMs: number) {
  const started: Date[] = [];
  let release: () => void = () => {};
  const job = {
    name,
    everyMs,
    run: (now: Date) => {
      started.push(now);
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    },
  };
  return { job, started, release: () => release() };
}

describe('periodic jobs registry', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-25T12:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a job on its timer with the clock of that tick, and never doubles a run still in progress', async () => {
    const logger = recordingLogger();
    const jobs = startPeriodicJobs(logger);
    const gated = gatedJob('lento', 1_000);
    jobs.add(gated.job);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(gated.started).toEqual([new Date('2026-11-25T12:00:01Z')]);
    // Three more ticks while the first run is still open: skipped, not queued.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(gated.started).toHaveLength(1);
    // runNow behind the same guard: it joins the open run instead of starting another.
    const joined = jobs.runNow('lento');
    expect(gated.started).toHaveLength(1);
    gated.release();
    await joined;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(gated.started).toEqual([new Date('2026-11-25T12:00:01Z'), new Date('2026-11-25T12:00:05Z')]);
    gated.release();
    await jobs.stop();
  });

  it('logs and counts a failed run under its name, and keeps the timer going', async () => {
    const logger = recordingLogger();
    const jobs = startPeriodicJobs(logger);
    let calls = 0;
    jobs.add({
      name: 'falha',
      everyMs: 500,
      run: async () => {
        calls++;
        if (calls === 1) throw new Error('banco fora do ar');
      },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    expect(jobs.failures()).toEqual({ falha: 1 });
    expect(logger.warnings).toEqual([{ job: 'falha', message: 'periodic job falha failed' }]);
    await jobs.stop();
  });

  it('stop() ends every timer and waits for the run in progress; nothing runs or registers afterwards', async () => {
    const jobs = startPeriodicJobs(recordingLogger());
    const gated = gatedJob('em-curso', 1_000);
    jobs.add(gated.job);
    await vi.advanceTimersByTimeAsync(1_000);
    let stopped = false;
    const stopping = jobs.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    gated.release();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(gated.started).toHaveLength(1);
    expect(() => jobs.add({ name: 'tarde', everyMs: 1_000, run: async () => {} })).toThrow(/stopped/);
  });

  it('refuses a second job with the same name and an unknown name in runNow', async () => {
    const jobs = startPeriodicJobs(recordingLogger());
    jobs.add({ name: 'unico', everyMs: 1_000, run: async () => {} });
    expect(() => jobs.add({ name: 'unico', everyMs: 5_000, run: async () => {} })).toThrow(/already registered/);
    expect(() => jobs.runNow('outro')).toThrow(/no periodic job named outro/);
    await jobs.stop();
  });

  it('passes runNow an explicit clock (how tests drive a job)', async () => {
    const jobs = startPeriodicJobs(recordingLogger());
    const seen: Date[] = [];
    jobs.add({ name: 'relogio', everyMs: 60_000, run: async (now) => void seen.push(now) });
    await jobs.runNow('relogio', new Date('2027-02-28T15:00:00Z'));
    expect(seen).toEqual([new Date('2027-02-28T15:00:00Z')]);
    await jobs.stop();
  });
});
