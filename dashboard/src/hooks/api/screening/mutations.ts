// Clearing or confirming a Beneficiary's open screening hits (admins, step-up; never the person whose change was
// screened: the API answers 403 SCREENING_MAKER_CHECKER_VIOLATION with its message, shown where the person acted).
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { ScreeningOutcome } from "./types";

export interface ScreeningDecisionInput {
  readonly outcome: ScreeningOutcome;
  readonly beneficiaryId: string;
  readonly reason: string;
}

export function useDecideScreening() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({ outcome, beneficiaryId, reason }: ScreeningDecisionInput) => {
      const request = { params: { path: { id: beneficiaryId } }, body: { reason } };
      return call(
        outcome === "clear"
          ? api.POST("/v1/beneficiaries/{id}/screening/clear", request)
          : api.POST("/v1/beneficiaries/{id}/screening/confirm", request),
      );
    },
    // The hits and the Beneficiary's screening_status (its page, the lists) change together.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.screening.all(environment) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.beneficiaries.all(environment) }),
      ]),
  });
}
