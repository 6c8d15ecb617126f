// The signed-in person's two-factor authentication: enrol (start, confirm with a first code), regenerate the
// recovery codes, turn it off. Adding a factor and new recovery codes need a recent confirmation (step-up, by
// password: the person has no second factor yet when enrolling).
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { useAcceptSession } from "../session/queries";
import { useApiMutation } from "../use-api-mutation";

/**
 * The member list (its two-factor column, and Security's "who has no two-factor yet") changes with my own
 * two-factor, in every environment's cache: read it again, or the page keeps naming me until a reload.
 */
const refreshMembers = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ predicate: (query) => query.queryKey[1] === "members" });

export function useStartTwoFactorEnrolment() {
  return useApiMutation({ mutationFn: () => call(api.POST("/v1/session/two-factor/enrolment")) });
}

/** Turns two-factor on with a first code: answers the session (accepted here) and ten recovery codes. */
export function useConfirmTwoFactorEnrolment() {
  const accept = useAcceptSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (code: string) => call(api.POST("/v1/session/two-factor/enrolment/confirmation", { body: { code } })),
    onSuccess: ({ recovery_codes: _codes, ...session }) => {
      accept(session);
      return refreshMembers(queryClient);
    },
  });
}

export function useRegenerateRecoveryCodes() {
  return useApiMutation({ mutationFn: () => call(api.POST("/v1/session/two-factor/recovery-codes")) });
}

/** Turns two-factor off with a code or a recovery code, then reads the session again (its identity changed). */
export function useDisableTwoFactor() {
  const { accept } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async (code: string) => {
      await call(api.POST("/v1/session/two-factor/disable", { body: { code } }));
      return call(api.GET("/v1/session"));
    },
    onSuccess: (session) => {
      accept(session);
      return refreshMembers(queryClient);
    },
  });
}
