import pino from 'pino';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/support/test-app';
import { type TestClock, testClock } from '../../../../test/support/test-clock';
import type { DatabaseKind } from '../../../../test/support/test-database';
import type { Db } from '../../../db/database';
import { SendingEngine } from '../../../worker/sending-engine';
import { createRelayTransport } from '../../../worker/sending-runtime';
import { testSenderSettings } from './send-fixtures';
import { type SmtpSink, startSmtpSink } from './smtp-sink';

type SenderDeps = ConstructorParameters<typeof SendingEngine>[0];

/** The app, its database and a loopback relay, set up once per suite; senders made by it are stopped after each test. */
export interface EngineHarness {
  readonly t: TestApp;
  readonly db: Db;
  readonly sink: SmtpSink;
  /** The clock of the app and of every sender made here: a test moves it instead of waiting (back to real time after each test). */
  readonly clock: TestClock;
  /** A SendingEngine relaying to the sink (2 connections), with the test settings unless overridden. */
  newSender(overrides?: Partial<SenderDeps>): SendingEngine;
  /** A relay transport to the sink, closed after the test (for a test that wires its own lanes). */
  newTransport(connections?: number): ReturnType<typeof createRelayTransport>;
}

/** Registers the suite's hooks (call it inside `describe`) and returns the harness its tests use. */
export function useEngineHarness(kind: DatabaseKind, env: Record<string, string> = {}): EngineHarness {
  let t: TestApp | undefined;
  let sink: SmtpSink | undefined;
  const senders: SendingEngine[] = [];
  const transports: ReturnType<typeof createRelayTransport>[] = [];
  const clock = testClock();
  beforeAll(async () => {
    t = await createTestApp(kind, env, undefined, { clock: clock.now });
    sink = await startSmtpSink();
  });
  afterEach(async () => {
    for (const s of senders.splice(0)) await s.stop();
    for (const tr of transports.splice(0)) await tr.close();
    clock.reset();
    // A test that made the relay refuse or go down leaves it answering again for the next one.
    if (sink) {
      sink.rcptReply = null;
      sink.down = false;
    }
  });
  afterAll(async () => {
    await sink?.close();
    await t?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('engine harness used before its beforeAll ran');
    return value;
  };
  const newTransport = (connections = 2) => {
    const transport = createRelayTransport(ready(sink).url, connections);
    transports.push(transport);
    return transport;
  };
  return {
    get t() {
      return ready(t);
    },
    get db() {
      return ready(t).database.db;
    },
    get sink() {
      return ready(sink);
    },
    clock,
    newTransport,
    newSender(overrides = {}) {
      const app = ready(t);
      const transport = newTransport();
      const sender = new SendingEngine({
        db: app.database.db,
        transports: [transport],
        settings: testSenderSettings(),
        logger: pino({ level: 'silent' }),
        mailer: app.mailer,
        clock: clock.now,
        ...overrides,
      });
      senders.push(sender);
      return sender;
    },
  };
}

/**
 * The one "run until" of the engine suites: ticks the engines (together, one round at a time) until `done()` holds,
 * pausing `pauseMs` between rounds; after `ms` it fails naming `what`, with what `explain()` says about the state.
 */
export async function runEngineUntil(
  engines: SendingEngine | SendingEngine[],
  done: () => Promise<boolean> | boolean,
  what: string,
  { ms = 10_000, pauseMs = 20, explain }: { ms?: number; pauseMs?: number; explain?: () => Promise<string> } = {},
): Promise<void> {
  const list = Array.isArray(engines) ? engines : [engines];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await Promise.all(list.map((engine) => engine.tick()));
    if (await done()) return;
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}${explain ? `: ${await explain()}` : ''}`);
}
