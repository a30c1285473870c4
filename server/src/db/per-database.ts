import type { Db } from './database';

/**
 * Module state that belongs to one database (it names rows by serial ids, or queues per account): a process has one
 * database, but the test suite runs many files' databases in one process (vitest.config.ts, `isolate: false`), so
 * such state is kept per Db, created on first use. `reset` forgets every database's state (tests).
 */
export function perDatabase<T>(create: () => T): { of(db: Db): T; reset(): void } {
  let states = new WeakMap<Db, T>();
  return {
    of(db) {
      let state = states.get(db);
      if (state === undefined) {
        state = create();
        states.set(db, state);
      }
      return state;
    },
    reset() {
      states = new WeakMap();
    },
  };
}
