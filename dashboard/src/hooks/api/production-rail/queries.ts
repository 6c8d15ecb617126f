// Whether production payouts of this Business go to the production simulator: the service routes them there
// while the Business has no bank rail configured (GET /v1/bank-rails lists none), and to the bank otherwise.
// The frame's banner tells simulator use from real production with it.
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

/** True on the production simulator, false with a bank rail, undefined while unknown (or in sandbox). */
export function useProductionSimulator(): boolean | undefined {
  const { environment } = useSession();
  const rails = useQuery({
    queryKey: queryKeys.productionRail.simulator(environment),
    queryFn: async () => (await call(api.GET("/v1/bank-rails"))).bank_rails.length === 0,
    enabled: environment === "production",
    staleTime: 60_000,
  });
  return environment === "production" ? rails.data : undefined;
}
