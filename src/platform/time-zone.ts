// Calendar days and wall clocks in an IANA time zone: the shared workspace package (packages/time-zone), which
// the dashboard uses too, so a day the API counts and a day the dashboard shows mean the same instants. The
// service's code imports it from here.
export {
  addDays,
  dayInZone,
  dayStartInZone,
  instantsAt,
  isTimeZone,
  validDay,
  wallClockMs,
} from "@payout-orchestration/time-zone";
