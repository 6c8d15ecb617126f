// Changing a funding account's settings (admins, step-up from a session): enforcement, overdraft limit, low-balance
// threshold, how long a payout may wait for funds. Reads the accounts again.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { FundingSettingsChanges } from "./types";

export function useUpdateFundingAccount() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({ id, changes }: { id: string; changes: FundingSettingsChanges }) =>
      call(api.PATCH("/v1/funding-accounts/{id}", { params: { path: { id } }, body: changes })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.funding.all(environment) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.controlChanges.all(environment) }),
      ]),
  });
}
