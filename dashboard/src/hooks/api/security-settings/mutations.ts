// Requiring two-factor of every member (admins, step-up). The answer is cached as is; the caller's own
// session may now owe an enrolment, so it is read again.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";

export function useRequireTwoFactor() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (requireTwoFactor: boolean) =>
      call(api.PUT("/v1/security-settings", { body: { require_two_factor: requireTwoFactor } })),
    onSuccess: (answer) => {
      queryClient.setQueryData(queryKeys.securitySettings(environment), answer);
      return queryClient.invalidateQueries({ queryKey: queryKeys.session });
    },
  });
}
