import { Text } from "@mantine/core";
import { useTimeZone } from "../lib/time-zone";

/** Which zone the dashboard's dates and days are in, in words. */
export function timeZoneSentence(zone: string, business: boolean): string {
  return business
    ? `Dates and days are in ${zone}, the Business's time zone.`
    : `Dates and days are in your browser's time zone, ${zone}: the Business has none set.`;
}

/** One line saying which zone dates are in (Home), so nobody reads them as their own clock. */
export function TimeZoneNote() {
  const { zone, business } = useTimeZone();
  return (
    <Text size="sm" c="dimmed" data-testid="time-zone-note">
      {timeZoneSentence(zone, business)}
    </Text>
  );
}
