import { describe, expect, it } from 'vitest';
import { Counter, formatFamily, Histogram, type Labels, labelKey } from './exposition';

describe('Prometheus text exposition 0.0.4', () => {
  it('writes HELP, TYPE and escaped label values', () => {
    const c = new Counter('x_total', 'Things\ncounted \\ here.');
    c.inc({ path: 'a"b\\c\nd' });
    c.inc({ path: 'a"b\\c\nd' }, 2);
    expect(c.render()).toBe(
      '# HELP x_total Things\\ncounted \\\\ here.\n# TYPE x_total counter\nx_total{path="a\\"b\\\\c\\nd"} 3\n',
    );
    expect(formatFamily('g', 'gauge', 'G.', [{ labels: {}, value: Number.NaN }])).toBe(
      '# HELP g G.\n# TYPE g gauge\ng NaN\n',
    );
  });

  it('writes cumulative histogram buckets ending in +Inf, with _sum and _count', () => {
    const h = new Histogram('d_seconds', 'D.', [0.1, 1]);
    h.observe({ route: '/a' }, 0.05);
    h.observe({ route: '/a' }, 0.5);
    h.observe({ route: '/a' }, 3);
    expect(h.render().split('\n')).toEqual([
      '# HELP d_seconds D.',
      '# TYPE d_seconds histogram',
      'd_seconds_bucket{route="/a",le="0.1"} 1',
      'd_seconds_bucket{route="/a",le="1"} 2',
      'd_seconds_bucket{route="/a",le="+Inf"} 3',
      'd_seconds_sum{route="/a"} 3.55',
      'd_seconds_count{route="/a"} 3',
      '',
    ]);
  });

  it('keeps one series per distinct label set, whatever characters the values carry', () => {
    const sets: Labels[] = [
      {},
      { a: '' },
      { a: 'x' },
      { a: 'x', b: '' },
      { b: 'x' },
      { a: 'x\u0000b' },
      { a: 'x', b: '\u0000' },
      { a: 'x\u0001b\u0000' },
      { a: '\u0002' },
      { 'a\u0000x': '' },
      { method: 'POST', route: '/api/v1/messages', status: '201' },
      { method: 'POST', route: '/api/v1/messages', status: '202' },
    ];
    const keys = sets.map(labelKey);
    expect(new Set(keys).size).toBe(sets.length);
    // The same labels built anew share their key (one series, counted together).
    expect(labelKey({ method: 'POST', route: '/api/v1/messages', status: '201' })).toBe(keys[10]);
    const c = new Counter('r_total', 'R.');
    for (const labels of [...sets, ...sets]) c.inc({ ...labels });
    const lines = c
      .render()
      .split('\n')
      .filter((l) => l.startsWith('r_total'));
    expect(lines).toHaveLength(sets.length);
    for (const line of lines) expect(line.endsWith(' 2')).toBe(true);
  });
});
