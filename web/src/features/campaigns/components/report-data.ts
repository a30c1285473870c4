import { formatCount } from '@/lib/format';
import type { MessageKey, MessageParams } from '@/lib/i18n';
import type { CampaignReport } from '../api/get-report';
import { countForm } from './count-form';

/** `useI18n().t`, passed to the helpers that build texts outside a component. */
export type Translate = (key: MessageKey, params?: MessageParams) => string;

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
export function activitySummary(points: HourPoint[], t: Translate): string {
  const opens = points.reduce((sum, p) => sum + p.opens, 0);
  const clicks = points.reduce((sum, p) => sum + p.clicks, 0);
  const peak = points.reduce<HourPoint | null>((best, p) => (!best || p.opens > best.opens ? p : best), null);
  const opensText = (count: number) =>
    t(`campaigns.report.activity.opens.${countForm(count)}`, { count: formatCount(count) });
  const total = t('campaigns.report.activity.total', {
    opens: opensText(opens),
    clicks: t(`campaigns.report.activity.clicks.${countForm(clicks)}`, { count: formatCount(clicks) }),
  });
  return peak && peak.opens > 0
    ? t('campaigns.report.activity.peak', { total, peak: opensText(peak.opens), hour: peak.label })
    : t('campaigns.report.activity.noPeak', { total });
}

export const BOUNCE_KINDS = ['hard', 'soft', 'policy'] as const;

export function bounceRows(bounces: CampaignReport['bounces'], t: Translate) {
  return BOUNCE_KINDS.map((kind) => ({
    kind,
    label: t(`campaigns.report.bounceKind.${kind}`),
    count: bounces[kind],
  }));
}

export const totalBounces = (bounces: CampaignReport['bounces']) => bounces.hard + bounces.soft + bounces.policy;

/** A long URL shortened for an axis label, keeping host and the start of the path. */
export function shortUrl(url: string, max = 40): string {
  const bare = url.replace(/^https?:\/\//, '');
  return bare.length > max ? `${bare.slice(0, max - 1)}…` : bare;
}

/** A recipient's message status as the catalogue names it; an unknown status shows as the server wrote it. */
export function recipientStatusText(status: string, t: Translate): string {
  const known = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;
  const match = known.find((s) => s === status);
  return match ? t(`campaigns.report.status.${match}`) : status;
}

/** A recipient's bounce kind; an unknown kind is just "a bounce". */
export function bounceText(bounce: string, t: Translate): string {
  const match = BOUNCE_KINDS.find((kind) => kind === bounce);
  return match ? t(`campaigns.report.bounce.${match}`) : t('campaigns.report.mark.bounce');
}
