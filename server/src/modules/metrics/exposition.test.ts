import { describe, expect, it } from 'vitest';
import { Counter, formatFamily, Histogram } from './exposition';

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
});
