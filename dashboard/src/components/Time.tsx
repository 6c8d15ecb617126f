import { formatLocalTime, utcTitle } from "../lib/time";

/** A time in the person's zone; the UTC value on hover (and for screen readers, through the datetime attribute). */
export function Time({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined) return <span>—</span>;
  return (
    <time dateTime={value} title={utcTitle(value)}>
      {formatLocalTime(value)}
    </time>
  );
}
