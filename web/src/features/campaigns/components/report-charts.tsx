/**
 * Recharts lives only in this chunk: the view page loads it lazily when a report has something to draw, so
 * neither the landing page nor the rest of the dashboard pays for it.
 */
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatCount } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { type HourPoint, shortUrl } from './report-data';

const BRAND = '#7c3aed';
const TEAL = '#0d9488';
const AXIS = { fontSize: 12, fill: '#64748b' };
const tooltipCount = (value: unknown) => formatCount(Number(value));

/** Opens and clicks per hour (human only). */
export function ActivityChart({ points }: { points: HourPoint[] }) {
  const { t } = useI18n();
  return (
    <ResponsiveContainer width="100%" height={260}>
      <AreaChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <defs>
          <linearGradient id="report-opens" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor={BRAND} stopOpacity={0.35} />
            <stop offset="100%" stopColor={BRAND} stopOpacity={0.02} />
          </linearGradient>
          <linearGradient id="report-clicks" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor={TEAL} stopOpacity={0.35} />
            <stop offset="100%" stopColor={TEAL} stopOpacity={0.02} />
          </linearGradient>
        </defs>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={false} minTickGap={24} />
        <YAxis
          allowDecimals={false}
          tick={AXIS}
          tickLine={false}
          axisLine={false}
          width={40}
          tickFormatter={tooltipCount}
        />
        <Tooltip formatter={tooltipCount} />
        <Legend />
        <Area
          type="monotone"
          dataKey="opens"
          name={t('campaigns.col.opens')}
          stroke={BRAND}
          strokeWidth={2}
          fill="url(#report-opens)"
          isAnimationActive={false}
        />
        <Area
          type="monotone"
          dataKey="clicks"
          name={t('campaigns.col.clicks')}
          stroke={TEAL}
          strokeWidth={2}
          fill="url(#report-clicks)"
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}

/** Unique clicks per link, most clicked first (horizontal bars so long URLs stay legible). */
export function LinksChart({ links }: { links: Array<{ url: string; uniqueClicks: number; clicks: number }> }) {
  const { t } = useI18n();
  const data = links.slice(0, 10).map((l) => ({ name: shortUrl(l.url, 22), url: l.url, people: l.uniqueClicks }));
  return (
    <ResponsiveContainer width="100%" height={Math.max(120, data.length * 40 + 40)}>
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 24, bottom: 0, left: 8 }}>
        <CartesianGrid stroke="#e2e8f0" horizontal={false} />
        <XAxis
          type="number"
          allowDecimals={false}
          tick={AXIS}
          tickLine={false}
          axisLine={false}
          tickFormatter={tooltipCount}
        />
        <YAxis type="category" dataKey="name" tick={AXIS} tickLine={false} axisLine={false} width={150} />
        <Tooltip formatter={tooltipCount} />
        <Bar
          dataKey="people"
          name={t('campaigns.report.chart.peopleClicked')}
          fill={BRAND}
          radius={[0, 6, 6, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Bounces by kind (hard, soft, policy). */
export function BouncesChart({ rows }: { rows: Array<{ label: string; count: number }> }) {
  const { t } = useI18n();
  return (
    <ResponsiveContainer width="100%" height={180}>
      <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={false} />
        <YAxis
          allowDecimals={false}
          tick={AXIS}
          tickLine={false}
          axisLine={false}
          width={40}
          tickFormatter={tooltipCount}
        />
        <Tooltip formatter={tooltipCount} />
        <Bar
          dataKey="count"
          name={t('campaigns.report.bounces')}
          fill="#f59e0b"
          radius={[6, 6, 0, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
