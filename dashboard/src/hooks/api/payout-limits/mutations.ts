// Replacing the payout limits (admins, step-up). A tightening answers the limits in force (cached as is); a raise
// while maker-checker is on answers 202 with a pending control change (nothing changed: the list of pending
// changes is read again).
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import { isControlChange, type PayoutLimitsInput } from "./types";

export function useReplacePayoutLimits() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: PayoutLimitsInput) => call(api.PUT("/v1/payout-limits", { body })),
    onSuccess: (answer) => {
      if (isControlChange(answer)) {
        return queryClient.invalidateQueries({ queryKey: queryKeys.controlChanges.all(environment) });
      }
      queryClient.setQueryData(queryKeys.payoutLimits(environment), answer);
      return undefined;
    },
  });
}
