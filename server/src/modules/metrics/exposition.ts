/**
 * Prometheus text exposition format 0.0.4, written by hand (no client library): counters, gauges and
 * histograms with labels. https://prometheus.io/docs/instrumenting/exposition_formats/
 */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Record<string, string>;

/** Label values escape backslash, double quote and newline. */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text escapes backslash and newline. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

export function formatLabels(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`;
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

export interface Sample {
  labels: Labels;
  value: number;
  /** Suffix added to the metric name (histograms: _bucket, _sum, _count). */
  suffix?: string;
}

/** One metric family: its HELP and TYPE lines, then its samples. */
export function formatFamily(
  name: string,
  type: 'counter' | 'gauge' | 'histogram' | 'untyped',
  help: string,
  samples: Sample[],
): string {
  const lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`];
  for (const s of samples) lines.push(`${name}${s.suffix ?? ''}${formatLabels(s.labels)} ${formatValue(s.value)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The series key of a label set: names and values joined by control characters, built by concatenation because it
 * runs twice on every HTTP response (the onResponse hook; JSON.stringify of the entries cost ~8 µs per request under
 * bench:api's single sends). A value carrying one of those characters (never a method, route pattern or status) takes
 * the JSON form behind a marker no concatenated key starts with, so two different label sets never share a key.
 */
export function labelKey(labels: Labels): string {
  let key = '';
  for (const name in labels) {
    const value = labels[name] as string;
    if (hasSeparator(name) || hasSeparator(value)) return `\u0002${JSON.stringify(Object.entries(labels))}`;
    key += `${name}\u0000${value}\u0001`;
  }
  return key;
}
const hasSeparator = (text: string) => text.includes('\u0000') || text.includes('\u0001') || text.includes('\u0002');

export class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels, by = 1): void {
    const key = labelKey(labels);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { labels, value: by });
  }
  render(): string {
    return formatFamily(this.name, 'counter', this.help, [...this.values.values()]);
  }
}

/** The client libraries' default buckets, in seconds: fine for HTTP latencies. */
export const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Histogram {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[] = DEFAULT_BUCKETS,
  ) {}
  observe(labels: Labels, value: number): void {
    const key = labelKey(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    // Per-bucket counts here; the exposition makes them cumulative.
    const i = this.buckets.findIndex((upper) => value <= upper);
    if (i >= 0) s.counts[i] = (s.counts[i] ?? 0) + 1;
    s.sum += value;
    s.count += 1;
  }
  render(): string {
    const samples: Sample[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((upper, i) => {
        cumulative += s.counts[i] ?? 0;
        samples.push({ suffix: '_bucket', labels: { ...s.labels, le: formatValue(upper) }, value: cumulative });
      });
      samples.push({ suffix: '_bucket', labels: { ...s.labels, le: '+Inf' }, value: s.count });
      samples.push({ suffix: '_sum', labels: s.labels, value: s.sum });
      samples.push({ suffix: '_count', labels: s.labels, value: s.count });
    }
    return formatFamily(this.name, 'histogram', this.help, samples);
  }
}
