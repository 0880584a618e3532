import type { Overview } from "~/lib/admin.server";
import { formatUsd } from "~/lib/money";

/*
 * Orders per day as bars drawn on the server: plain SVG, so it shows without JavaScript and scales to a
 * phone's width. The same figures are in a table below it for screen readers and for exact numbers.
 */

const WIDTH = 600;
const HEIGHT = 160;
const GAP = 2;

export function OrdersChart({ days }: { days: Overview["perDay"] }) {
  const most = Math.max(1, ...days.map((day) => day.orders));
  const barWidth = WIDTH / days.length;
  return (
    <figure className="flex flex-col gap-2">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`}
        role="img"
        aria-labelledby="orders-chart-caption"
        className="h-auto w-full"
        data-testid="orders-chart"
      >
        <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} stroke="currentColor" className="text-slate-300" />
        {days.map((day, index) => {
          const height = Math.round((day.orders / most) * (HEIGHT - 10));
          return (
            <rect
              key={day.day}
              x={index * barWidth + GAP / 2}
              y={HEIGHT - height}
              width={barWidth - GAP}
              height={height}
              className="fill-brand-600"
            >
              <title>{`${day.day}: ${day.orders} orders, ${formatUsd(day.revenueCents / 100)}`}</title>
            </rect>
          );
        })}
        <text x="0" y={HEIGHT + 16} className="fill-slate-600 text-xs">
          {days[0]?.day}
        </text>
        <text x={WIDTH} y={HEIGHT + 16} textAnchor="end" className="fill-slate-600 text-xs">
          {days.at(-1)?.day}
        </text>
      </svg>
      <details>
        <summary className="cursor-pointer text-sm font-semibold">Orders per day as a table</summary>
        <table className="mt-2 w-full text-left text-sm">
          <thead>
            <tr>
              <th className="py-1">Day</th>
              <th className="py-1">Orders</th>
              <th className="py-1">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <td className="py-0.5">{day.day}</td>
                <td className="py-0.5">{day.orders}</td>
                <td className="py-0.5">{formatUsd(day.revenueCents / 100)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {/* A figcaption is the figure's first or last child (HTML). */}
      <figcaption id="orders-chart-caption" className="text-sm text-slate-600">
        Paid orders per day, the last {days.length} days (UTC); the highest day had {most}.
      </figcaption>
    </figure>
  );
}
