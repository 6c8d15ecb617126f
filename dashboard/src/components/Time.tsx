import { formatTime, utcTitle } from "../lib/time";
import { useTimeZone } from "../lib/time-zone";

/**
 * A time in the dashboard's zone (the Business's, else the browser's) with the zone's short name; the UTC value
 * on hover (and for screen readers, through the datetime attribute).
 */
export function Time({ value }: { value: string | null | undefined }) {
  const { zone } = useTimeZone();
  if (value === null || value === undefined) return <span>—</span>;
  return (
    <time dateTime={value} title={utcTitle(value)}>
      {formatTime(value, zone)}
    </time>
  );
}
