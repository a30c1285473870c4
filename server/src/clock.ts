/**
 * The time a decision is made at (ARCHITECTURE.md "Time"). A long-lived part — the app, a route plugin, the sending
 * engine, the periodic-job registry — is given a `Clock` and reads it once per decision; a function it calls takes
 * that reading as `now: Date`. So a test moves time by handing in its own clock instead of waiting on the real one.
 */
export type Clock = () => Date;

/** The machine's wall clock: the default wherever no clock is passed. */
export const systemClock: Clock = () => new Date();
