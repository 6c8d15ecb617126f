// A small bar chart of the payout volume per day, one per currency (amounts of different currencies are
// not added up). No charting library: an SVG of bars, each with its figure as a <title>, named by its
// caption, and the same figures as a table beside it for anyone who cannot see the bars. Loaded on demand
// by Home, so its code is not in the first visit's bundle.
import { Stack, Table, Text } from "@mantine/core";
import { useId } from "react";
import { formatMoney } from "../lib/money";
import { formatDay, type VolumeSeries } from "../lib/volume";

const WIDTH = 600;
const HEIGHT = 140;
const TOP = 8;
const BOTTOM = 20;
/** Room for the amount axis's labels at the left of the bars. */
const LEFT = 84;

function CurrencyChart({ series, timeZone }: { series: VolumeSeries; timeZone: string }) {
  const captionId = useId();
  const slot = (WIDTH - LEFT) / series.days.length;
  const plot = HEIGHT - TOP - BOTTOM;
  const first = series.days[0];
  const last = series.days[series.days.length - 1];
  const caption = `${series.currency}: ${formatMoney(series.totalMinor, series.currency)} in ${series.totalCount} payout${
    series.totalCount === 1 ? "" : "s"
  }, highest day ${formatMoney(series.maxMinor, series.currency)}`;
  return (
    <figure style={{ margin: 0 }} data-testid="volume-chart" data-currency={series.currency}>
      <figcaption id={captionId}>
        <Text size="sm" fw={600}>
          {caption}
        </Text>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-labelledby={captionId}
        style={{ display: "block", maxWidth: WIDTH }}
      >
        <title>{caption}</title>
        {/* The amount axis: zero, half and the highest day, each a labelled grid line, so a bar's height reads as money. */}
        {[0, 0.5, 1].map((fraction) => {
          const y = HEIGHT - BOTTOM - fraction * plot;
          return (
            <g key={fraction} data-testid="volume-axis-tick">
              <line
                x1={LEFT}
                x2={WIDTH}
                y1={y}
                y2={y}
                stroke={fraction === 0 ? "var(--mantine-color-gray-7)" : "var(--mantine-color-gray-4)"}
                strokeWidth={1}
              />
              <text x={LEFT - 6} y={y + 4} fontSize={11} textAnchor="end" fill="var(--mantine-color-gray-7)">
                {formatMoney(Math.round(series.maxMinor * fraction), series.currency)}
              </text>
            </g>
          );
        })}
        {series.days.map((day, index) => {
          const height =
            series.maxMinor === 0 ? 0 : Math.max(day.amountMinor > 0 ? 2 : 0, (day.amountMinor / series.maxMinor) * plot);
          return (
            <rect
              key={day.date}
              x={LEFT + index * slot + 1}
              y={HEIGHT - BOTTOM - height}
              width={Math.max(1, slot - 2)}
              height={height}
              fill="var(--mantine-color-blue-8)"
              data-testid="volume-bar"
            >
              <title>{`${formatDay(day.date)}: ${formatMoney(day.amountMinor, series.currency)}, ${day.count} payout${day.count === 1 ? "" : "s"}`}</title>
            </rect>
          );
        })}
        {first !== undefined && (
          <text x={LEFT} y={HEIGHT - 4} fontSize={12} fill="var(--mantine-color-gray-7)">
            {formatDay(first.date)}
          </text>
        )}
        {last !== undefined && (
          <text x={WIDTH} y={HEIGHT - 4} fontSize={12} textAnchor="end" fill="var(--mantine-color-gray-7)">
            {formatDay(last.date)}
          </text>
        )}
      </svg>
      <details>
        <summary>
          <Text span size="sm">
            {series.currency} per day as a table
          </Text>
        </summary>
        <Table fz="sm" data-testid="volume-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Day ({timeZone})</Table.Th>
              <Table.Th>Payouts</Table.Th>
              <Table.Th>Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {series.days
              .filter((day) => day.count > 0)
              .map((day) => (
                <Table.Tr key={day.date}>
                  <Table.Td>{formatDay(day.date)}</Table.Td>
                  <Table.Td>{day.count}</Table.Td>
                  <Table.Td style={{ fontVariantNumeric: "tabular-nums" }}>
                    {formatMoney(day.amountMinor, series.currency)}
                  </Table.Td>
                </Table.Tr>
              ))}
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed">
          Days without payouts are left out.
        </Text>
      </details>
    </figure>
  );
}

/** `timeZone`: the zone the answer's days are in (named in each table's header). */
export default function VolumeChart({ series, timeZone }: { series: readonly VolumeSeries[]; timeZone: string }) {
  return (
    <Stack gap="lg">
      {series.map((s) => (
        <CurrencyChart key={s.currency} series={s} timeZone={timeZone} />
      ))}
    </Stack>
  );
}
