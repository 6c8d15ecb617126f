// Approving or rejecting payouts, one request per payout, in order: a batch is not one request in the API. One
// mutation for the whole batch, so the dialog has one pending state and the payouts are read again once, at
// the end. Each request goes through the session's step-up by itself (the person is asked at most once: after
// confirming, the next requests are within the confirmation's lifetime); a refused confirmation stops the batch,
// since the rest would be refused the same way. A payout the API refuses is a result, not the mutation's error.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import type { DecisionInput, DecisionResult } from "./types";

export function useDecidePayouts() {
  const { environment, withStepUp } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ outcome, payouts, note, onProgress }: DecisionInput): Promise<readonly DecisionResult[]> => {
      const done: DecisionResult[] = [];
      const body = note.trim() === "" ? {} : { reason: note.trim() };
      for (const payout of payouts) {
        const params = { path: { payoutId: payout.payout_id } };
        try {
          const result = await withStepUp(() =>
            call(
              outcome === "approve"
                ? api.POST("/v1/payouts/{payoutId}/approve", { params, body })
                : api.POST("/v1/payouts/{payoutId}/reject", { params, body }),
            ),
          );
          done.push({ payoutId: payout.payout_id, ok: true, status: result.payout.status });
        } catch (error) {
          done.push({
            payoutId: payout.payout_id,
            ok: false,
            refusal: error instanceof ApiError ? `${error.message} (${error.code})` : "Failed",
          });
          if (error instanceof ApiError && error.code === "STEP_UP_REQUIRED") break;
        }
        onProgress?.([...done]);
      }
      return done;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all(environment) }),
  });
}
