// The hosted collection pages' branding of the environment shown.
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

export function useBranding() {
  const { environment } = useSession();
  return useQuery({ queryKey: queryKeys.branding(environment), queryFn: () => call(api.GET("/v1/branding")) });
}
