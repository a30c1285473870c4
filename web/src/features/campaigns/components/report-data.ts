import { plural } from '@carteiro/shared';
import type { CampaignReport } from '../api/get-report';

const HOUR_MS = 3_600_000;
/** Beyond two weeks of hours the chart shows only the hours that had events (no zero filling). */
const MAX_FILLED_HOURS = 14 * 24;

export interface HourPoint {
  /** ISO start of the hour (UTC). */
  hour: string;
  /** "22/11 14h" in the account's time zone. */
  label: string;
  opens: number;
  clicks: number;
}

const numberFormat = new Intl.NumberFormat('pt-BR');
export const formatCount = (value: number) => numberFormat.format(value);

/** "12,5%" from a 0–1 rate. */
export function formatRate(rate: number): string {
  return `${(rate * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;
}

export function hourLabel(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}/${part('month')} ${part('hour')}h`;
}

/** The hourly series with the quiet hours in between filled with zeros, so the chart's time axis is even. */
export function hourlyPoints(series: CampaignReport['series'], timeZone: string): HourPoint[] {
  const byHour = new Map(series.map((s) => [Date.parse(s.hour), s]));
  const times = [...byHour.keys()].filter(Number.isFinite).sort((a, b) => a - b);
  const first = times[0];
  const last = times[times.length - 1];
  if (first === undefined || last === undefined) return [];
  // A lone hour is drawn between two quiet ones, or the area chart would be a single dot.
  const from = first === last ? first - HOUR_MS : first;
  const to = first === last ? last + HOUR_MS : last;
  const filled =
    (to - from) / HOUR_MS <= MAX_FILLED_HOURS
      ? Array.from({ length: (to - from) / HOUR_MS + 1 }, (_, i) => from + i * HOUR_MS)
      : times;
  return filled.map((time) => {
    const s = byHour.get(time);
    const hour = new Date(time).toISOString();
    return { hour, label: hourLabel(hour, timeZone), opens: s?.opens ?? 0, clicks: s?.clicks ?? 0 };
  });
}

/** One sentence a screen reader (or anyone) reads instead of the chart. */
export function activitySummary(points: HourPoint[]): string {
  const opens = points.reduce((sum, p) => sum + p.opens, 0);
  const clicks = points.reduce((sum, p) => sum + p.clicks, 0);
  const peak = points.reduce<HourPoint | null>((best, p) => (!best || p.opens > best.opens ? p : best), null);
  const base = `${formatCount(opens)} ${plural(opens, 'abertura', 'aberturas')} e ${formatCount(clicks)} ${plural(clicks, 'clique', 'cliques')} no total`;
  return peak && peak.opens > 0
    ? `${base}; pico de ${formatCount(peak.opens)} ${plural(peak.opens, 'abertura', 'aberturas')} em ${peak.label}.`
    : `${base}.`;
}

export const BOUNCE_KINDS = [
  { key: 'hard', label: 'Permanentes' },
  { key: 'soft', label: 'Temporárias' },
  { key: 'policy', label: 'Por política' },
] as const;

export function bounceRows(bounces: CampaignReport['bounces']) {
  return BOUNCE_KINDS.map((kind) => ({ kind: kind.key, label: kind.label, count: bounces[kind.key] }));
}

export const totalBounces = (bounces: CampaignReport['bounces']) => bounces.hard + bounces.soft + bounces.policy;

/** A long URL shortened for an axis label, keeping host and the start of the path. */
export function shortUrl(url: string, max = 40): string {
  const bare = url.replace(/^https?:\/\//, '');
  return bare.length > max ? `${bare.slice(0, max - 1)}…` : bare;
}

export const RECIPIENT_STATUS_LABELS: Record<string, string> = {
  queued: 'Na fila',
  sending: 'Enviando',
  sent: 'Entregue',
  failed: 'Falhou',
  skipped: 'Não enviada',
};

export const BOUNCE_LABELS: Record<string, string> = {
  hard: 'devolução permanente',
  soft: 'devolução temporária',
  policy: 'devolução por política',
};
