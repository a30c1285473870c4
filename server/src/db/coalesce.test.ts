import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce';
import type { Db } from './database';

/** Two stand-in databases: coalesce only uses a Db as the key of its queues. */
const dbA = {} as Db;
const dbB = {} as Db;

function recorder(options: { max?: number; failTogether?: (items: number[]) => boolean } = {}) {
  const rounds: string[] = [];
  const run = coalesce<number, string>({
    max: options.max ?? 100,
    async alone(_db, queue, item) {
      rounds.push(`${queue}:alone:${item}`);
      await Promise.resolve();
      if (item < 0) throw new Error(`negativo ${item}`);
      return `a${item}`;
    },
    async together(_db, queue, items) {
      rounds.push(`${queue}:together:${items.join(',')}`);
      await Promise.resolve();
      if (options.failTogether?.(items)) throw new Error('a rodada falhou inteira');
      return items.map((i) => `t${i}`);
    },
  });
  return { rounds, run };
}

describe('coalesce: one round per arrival wave, per database and queue', () => {
  it('runs a lone request at once, alone; those that arrive meanwhile go together as the next round', async () => {
    const { rounds, run } = recorder();
    const answers = await Promise.all([1, 2, 3, 4].map((i) => run(dbA, 'q', i)));
    expect(answers).toEqual(['a1', 't2', 't3', 't4']);
    expect(rounds).toEqual(['q:alone:1', 'q:together:2,3,4']);
    // Idle again: the next request runs alone at once.
    expect(await run(dbA, 'q', 5)).toBe('a5');
  });

  it('keeps databases and queues apart, and cuts rounds at max', async () => {
    const { rounds, run } = recorder({ max: 2 });
    const answers = await Promise.all([
      run(dbA, 'q', 1),
      run(dbA, 'q', 2),
      run(dbA, 'q', 3),
      run(dbA, 'q', 4),
      run(dbA, 'r', 5),
      run(dbB, 'q', 6),
    ]);
    expect(answers).toEqual(['a1', 't2', 't3', 'a4', 'a5', 'a6']);
    expect(rounds.filter((r) => r.startsWith('q:') && !r.endsWith(':6'))).toEqual([
      'q:alone:1',
      'q:together:2,3',
      'q:alone:4',
    ]);
  });

  it('runs a round that failed as a whole alone, in order: each request gets its own answer or error', async () => {
    const { rounds, run } = recorder({ failTogether: (items) => items.some((i) => i < 0) });
    const settled = await Promise.allSettled([0, 1, -2, 3].map((i) => run(dbA, 'q', i)));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      'a0',
      'a1',
      'negativo -2',
      'a3',
    ]);
    expect(rounds).toEqual(['q:alone:0', 'q:together:1,-2,3', 'q:alone:1', 'q:alone:-2', 'q:alone:3']);
  });
});
