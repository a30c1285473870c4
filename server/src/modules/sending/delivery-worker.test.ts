import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../../test/support/test-clock';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import type { Database } from '../../db/database';
import { type ClaimSource, DeliveryWorker, type WorkerDeps } from './delivery-worker';
import { testSenderSettings } from './testing/send-fixtures';
import type { MailTransport } from './transport';

/** A loopback-free relay: the sources below never hand it a message. */
const idleTransport: MailTransport = { deliver: async () => [], close: async () => {} };

/** A claim source that records each call and answers from a script of batch sizes (then 0). */
function scripted(name: string, log: string[], sizes: number[], idleRecheckMs?: number): ClaimSource {
  const left = [...sizes];
  return {
    idleRecheckMs,
    prepare: async () => void log.push(`${name}:prepare`),
    sendBatch: async () => {
      const n = left.shift() ?? 0;
      log.push(`${name}:${n}`);
      return n;
    },
    settle: async () => void log.push(`${name}:settle`),
  };
}

class TestWorker extends DeliveryWorker {
  constructor(deps: WorkerDeps, sources: ClaimSource[]) {
    super(deps);
    this.serve(...sources);
  }
}

describe.each(DATABASE_KINDS)('the delivery worker over claim sources on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  const deps = (): WorkerDeps => ({
    db: database.db,
    transports: [idleTransport],
    settings: testSenderSettings({ concurrency: 1 }),
    logger: pino({ level: 'silent' }),
    workerId: 'w1',
  });

  it('prepares every source, asks them in turn each round until none had work, then settles them', async () => {
    const log: string[] = [];
    const worker = new TestWorker(deps(), [scripted('a', log, [2, 1]), scripted('b', log, [3])]);
    expect(await worker.tick()).toBe(true);
    expect(log).toEqual(['a:prepare', 'b:prepare', 'a:2', 'b:3', 'a:1', 'b:0', 'a:0', 'b:0', 'a:settle', 'b:settle']);
    log.length = 0;
    expect(await worker.tick()).toBe(false);
    expect(log).toEqual(['a:prepare', 'b:prepare', 'a:0', 'b:0', 'a:settle', 'b:settle']);
  });

  it('after an empty claim asks a source with idleRecheckMs again only once that time is over, across ticks', async () => {
    const log: string[] = [];
    const clock = testClock(new Date('2026-11-26T10:00:00Z'));
    const worker = new TestWorker({ ...deps(), clock: clock.now }, [
      scripted('campaigns', log, [1, 1]),
      scripted('stream', log, [], 200),
    ]);
    await worker.tick();
    // The stream answered 0 once: the next rounds (and the next tick) do not ask it.
    expect(log.filter((l) => l.startsWith('stream:') && !l.endsWith('prepare') && !l.endsWith('settle'))).toEqual([
      'stream:0',
    ]);
    clock.advance(150);
    await worker.tick();
    expect(log.filter((l) => l === 'stream:0')).toHaveLength(1);
    clock.advance(100);
    await worker.tick();
    expect(log.filter((l) => l === 'stream:0')).toHaveLength(2);
  });

  it('hands the sources a housekeeping sweep on the first tick, then once every sweepMs of its clock', async () => {
    const log: string[] = [];
    const clock = testClock(new Date('2026-11-26T10:00:00Z'));
    const source: ClaimSource = {
      prepare: async (sweep) => void log.push(`prepare:${sweep}`),
      sendBatch: async () => 0,
      settle: async (sweep) => void log.push(`settle:${sweep}`),
    };
    const worker = new TestWorker(
      { ...deps(), settings: testSenderSettings({ concurrency: 1, sweepMs: 1_000 }), clock: clock.now },
      [source],
    );
    await worker.tick();
    await worker.tick();
    clock.advance(999);
    await worker.tick();
    clock.advance(1);
    await worker.tick();
    await worker.tick();
    clock.advance(-5_000); // a clock moved back sweeps at once
    await worker.tick();
    expect(log).toEqual([
      'prepare:true',
      'settle:true',
      'prepare:false',
      'settle:false',
      'prepare:false',
      'settle:false',
      'prepare:true',
      'settle:true',
      'prepare:false',
      'settle:false',
      'prepare:true',
      'settle:true',
    ]);
    // sweepMs 0 (the tests' settings): every tick sweeps.
    log.length = 0;
    const eager = new TestWorker({ ...deps(), clock: clock.now }, [source]);
    await eager.tick();
    await eager.tick();
    expect(log).toEqual(['prepare:true', 'settle:true', 'prepare:true', 'settle:true']);
  });
});
