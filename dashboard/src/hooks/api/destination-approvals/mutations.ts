// Changing the destination policy (admins, step-up) and deciding on bank details (approvers and admins, step-up).
import { useQueryClient } from "@tanstack/react-query";
import { api, call, type Schemas } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { isControlChange } from "../payout-limits/types";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";

export type DestinationPolicyInput = Schemas["UpdateDestinationPolicyRequest"];

export function useUpdateDestinationPolicy() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: DestinationPolicyInput) => call(api.PUT("/v1/destination-policy", { body })),
    // A relaxation while maker-checker is on answers 202 with a pending control change: nothing changed yet.
    onSuccess: (answer) => {
      if (isControlChange(answer)) {
        return queryClient.invalidateQueries({ queryKey: queryKeys.controlChanges.all(environment) });
      }
      queryClient.setQueryData(queryKeys.destinationPolicy(environment), answer);
      return undefined;
    },
  });
}

export interface BankAccountDecision {
  readonly outcome: "approve" | "reject";
  readonly beneficiaryId: string;
  readonly accountId: string;
}

export function useDecideBankAccount() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({ outcome, beneficiaryId, accountId }: BankAccountDecision) => {
      const params = { path: { id: beneficiaryId, accountId } };
      return call(
        outcome === "approve"
          ? api.POST("/v1/beneficiaries/{id}/bank-accounts/{accountId}/approve", { params, body: {} })
          : api.POST("/v1/beneficiaries/{id}/bank-accounts/{accountId}/reject", { params, body: {} }),
      );
    },
    // The queue is under the beneficiaries' keys: the Beneficiary's page refreshes too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.beneficiaries.all(environment) }),
  });
}
