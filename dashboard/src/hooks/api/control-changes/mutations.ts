// Approving (a second admin, never the proposer) or discarding a pending control change. An approval applies the
// change, so the controls it may touch (limits, the approval policy, funding accounts) are read again.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";

export function useDecideControlChange() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({ id, verb }: { id: string; verb: "approve" | "discard" }) =>
      verb === "approve"
        ? call(api.POST("/v1/control-changes/{id}/approve", { params: { path: { id } } }))
        : call(api.POST("/v1/control-changes/{id}/discard", { params: { path: { id } } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.controlChanges.all(environment) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.payoutLimits(environment) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.approvalPolicy(environment) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.funding.all(environment) }),
      ]),
  });
}
