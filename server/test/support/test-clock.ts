import type { Clock } from '../../src/clock';

/**
 * A clock a test moves, so crossing a window, a schedule or a lease is one call, not a wait.
 * `testClock()` runs with the real clock, shifted by what the test added (the database's `now()` keeps agreeing
 * with it within the time a test takes); `testClock(at)` stands still at `at` and moves only when told (for
 * comparisons that must not depend on how long the test's own steps take).
 */
export interface TestClock {
  /** Pass this wherever production code takes a `Clock`. */
  readonly now: Clock;
  /** Moves the clock forward (or back, with a negative amount) by `ms`. */
  advance(ms: number): void;
  /** Makes the clock read `at` now (a running clock goes on from there). */
  set(at: Date): void;
  /** Back to where it started: the real time, or the `at` it was made with. */
  reset(): void;
}

export function testClock(standingAt?: Date): TestClock {
  const start = standingAt?.getTime();
  const base = () => start ?? Date.now();
  let offsetMs = 0;
  return {
    now: () => new Date(base() + offsetMs),
    advance(ms) {
      offsetMs += ms;
    },
    set(at) {
      offsetMs = at.getTime() - base();
    },
    reset() {
      offsetMs = 0;
    },
  };
}
