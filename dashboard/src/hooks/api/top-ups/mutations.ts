// Recording a top-up (admins) and deciding one (approvers and admins, step-up from a session; never the person who
// recorded it). An approval credits the account and may release waiting payouts, so balances, transfers, top-ups
// and payouts are read again.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { TopUpDecision } from "./types";

export function useRecordTopUp() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({
      fundingAccountId,
      amountMinor,
      reference,
    }: {
      fundingAccountId: string;
      amountMinor: number;
      reference: string;
    }) =>
      call(
        api.POST("/v1/funding-accounts/{id}/top-ups", {
          params: { path: { id: fundingAccountId } },
          body: { amount_minor: amountMinor, reference },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.topUps.all(environment) }),
  });
}

export function useDecideTopUp() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({ id, decision }: { id: string; decision: TopUpDecision }) =>
      decision.outcome === "approve"
        ? call(api.POST("/v1/top-ups/{id}/approve", { params: { path: { id } } }))
        : call(api.POST("/v1/top-ups/{id}/reject", { params: { path: { id } }, body: { reason: decision.reason } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.topUps.all(environment) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.funding.all(environment) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all(environment) }),
      ]),
  });
}
