// The zone the dashboard shows dates in: the Business's (`time_zone` of its profile, GET /v1/business) when
// set and known to this browser, else the browser's own. The same for every member, as an account time zone
// is: "created on the 3rd" means the Business's 3rd. Until the profile has answered, the browser's zone.
import { useBusinessProfile } from "../hooks/api/business/queries";
import { useSession } from "./session-context";
import { browserTimeZone, isTimeZone } from "./time";

export interface DisplayTimeZone {
  /** The IANA name dates are shown in. */
  readonly zone: string;
  /** Whether it is the Business's (else the browser's, the profile having none). */
  readonly business: boolean;
  /** Whether the profile has answered (or failed): before, `zone` is the browser's for now. */
  readonly ready: boolean;
}

export function useTimeZone(): DisplayTimeZone {
  const { session } = useSession();
  const businessId = session?.membership.business_id ?? null;
  const profile = useBusinessProfile(businessId, { staleTime: 60_000 });
  const ready = !profile.isPending;
  const stored = profile.data?.time_zone ?? null;
  if (stored !== null && isTimeZone(stored)) return { zone: stored, business: true, ready };
  return { zone: browserTimeZone(), business: false, ready };
}
