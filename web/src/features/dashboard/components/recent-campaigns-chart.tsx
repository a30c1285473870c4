/** Recharts for the home (its own lazy chunk, shared with the campaign report's). */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface CampaignBar {
  name: string;
  delivered: number;
  opened: number;
  clicked: number;
}

const AXIS = { fontSize: 12, fill: '#64748b' };

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
  // Names are cut to what fits under each group of bars: long with few campaigns, short with many.
  const maxLabel = Math.max(12, Math.floor(90 / Math.max(1, data.length)));
  return (
    <ResponsiveContainer width="100%" height={220}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis
          dataKey="name"
          tick={AXIS}
          tickLine={false}
          axisLine={false}
          interval={0}
          tickFormatter={(v: string) => (v.length > maxLabel ? `${v.slice(0, maxLabel - 1)}…` : v)}
        />
        <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} width={44} tickFormatter={format} />
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
