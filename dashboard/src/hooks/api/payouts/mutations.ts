// Writing payouts: creating one (or a replacement of a failed one) and cancelling one. Approving and rejecting
// are the Approvals' (hooks/api/approvals), a bulk file the uploads' (hooks/api/uploads). Each reads the payouts
// again once it succeeded.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { CreatePayoutInput } from "./types";

export function useCreatePayout() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({ idempotencyKey, body }: CreatePayoutInput) =>
      call(api.POST("/v1/payouts", { params: { header: { "idempotency-key": idempotencyKey } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all(environment) }),
  });
}

export function useCancelPayout(payoutId: string) {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: () => call(api.POST("/v1/payouts/{payoutId}/cancel", { params: { path: { payoutId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.payouts.all(environment) }),
  });
}
