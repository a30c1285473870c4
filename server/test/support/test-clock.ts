import type { Clock } from '../../src/clock';

/**
 * A clock a test moves: it runs with the real one (the database's `now()` keeps agreeing with it within the time
 * a test takes), shifted by what the test added — so crossing a window, a schedule or a window boundary is one call,
 * not a wait.
 */
export interface TestClock {
  /** Pass this wherever production code takes a `Clock`. */
  readonly now: Clock;
  /** Moves the clock forward (or back, with a negative amount) by `ms`. */
  advance(ms: number): void;
  /** Makes the clock read `at` now; it goes on running from there. */
  set(at: Date): void;
  /** Back to the real time. */
  reset(): void;
}

export function testClock(): TestClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms) {
      offsetMs += ms;
    },
    set(at) {
      offsetMs = at.getTime() - Date.now();
    },
    reset() {
      offsetMs = 0;
    },
  };
}
