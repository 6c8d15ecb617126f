// The environment's payout limits and today's usage (every role reads them).
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

export function usePayoutLimits() {
  const { environment } = useSession();
  return useQuery({ queryKey: queryKeys.payoutLimits(environment), queryFn: () => call(api.GET("/v1/payout-limits")) });
}
