// The Business profile (GET /v1/business): one per Business, whichever environment is shown (the display time
// zone, lib/time-zone.tsx, reads the same entry).
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { queryKeys } from "../query-keys";

/** `businessId` null: not signed in yet, nothing asked. `staleTime` for readers that need it only now and then. */
export function useBusinessProfile(businessId: string | null, { staleTime }: { staleTime?: number } = {}) {
  return useQuery({
    queryKey: queryKeys.business.profile(businessId ?? ""),
    queryFn: () => call(api.GET("/v1/business")),
    enabled: businessId !== null,
    ...(staleTime !== undefined && { staleTime }),
  });
}
