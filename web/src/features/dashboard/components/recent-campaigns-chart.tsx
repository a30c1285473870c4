/** Recharts for the home (its own lazy chunk, shared with the campaign report's). */
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface CampaignBar {
  name: string;
  delivered: number;
  opened: number;
  clicked: number;
}

const AXIS = { fontSize: 12, fill: '#64748b' };
const Y_AXIS_WIDTH = 44;
const MARGIN = { top: 8, right: 8, bottom: 0, left: 0 };
/** A generous average advance of a 12 px sans-serif character (digits and capitals are the widest). */
const CHAR_PX = 7.5;

/**
 * How many characters of a campaign's name fit under its group of bars: the plot's width shared by the groups,
 * less a gap, so neighbouring names never touch (at 375 px five names get 5 characters each, not 18).
 */
export function labelBudget(chartWidth: number, groups: number): number {
  const plot = Math.max(0, chartWidth - Y_AXIS_WIDTH - MARGIN.left - MARGIN.right);
  const slot = plot / Math.max(1, groups);
  return Math.max(2, Math.floor((slot - 8) / CHAR_PX));
}

/** `name` cut to `budget` characters, the ellipsis counted. */
export function shortLabel(name: string, budget: number): string {
  return name.length > budget ? `${name.slice(0, Math.max(1, budget - 1))}…` : name;
}

export default function RecentCampaignsChart({
  data,
  labels,
  formatCount,
}: {
  data: CampaignBar[];
  labels: { delivered: string; opened: string; clicked: string };
  formatCount: (value: number) => string;
}) {
  const format = (value: unknown) => formatCount(Number(value));
  // Names are cut to what fits under each group of bars at the chart's real width (the table below has them whole).
  const [width, setWidth] = useState(0);
  const maxLabel = width > 0 ? labelBudget(width, data.length) : 2;
  return (
    <ResponsiveContainer width="100%" height={220} minWidth={0} onResize={(w) => setWidth(w)}>
      <BarChart data={data} margin={MARGIN}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis
          dataKey="name"
          tick={AXIS}
          tickLine={false}
          axisLine={false}
          interval={0}
          tickFormatter={(v: string) => shortLabel(v, maxLabel)}
        />
        <YAxis
          allowDecimals={false}
          tick={AXIS}
          tickLine={false}
          axisLine={false}
          width={Y_AXIS_WIDTH}
          tickFormatter={format}
        />
        <Tooltip formatter={format} />
        {/* In the bars' order (Recharts sorts by name otherwise), in legible text (the light bar colour is not). */}
        <Legend itemSorter={null} formatter={(value: string) => <span className="text-slate-700">{value}</span>} />
        <Bar
          dataKey="delivered"
          name={labels.delivered}
          fill="#c4b5fd"
          radius={[4, 4, 0, 0]}
          isAnimationActive={false}
        />
        <Bar dataKey="opened" name={labels.opened} fill="#7c3aed" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        <Bar dataKey="clicked" name={labels.clicked} fill="#0d9488" radius={[4, 4, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
