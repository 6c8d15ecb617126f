// Control changes waiting for a second admin (every role reads them).
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

export function usePendingControlChanges() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.controlChanges.all(environment),
    queryFn: () => call(api.GET("/v1/control-changes", { params: { query: { status: "pending" } } })),
  });
}
