// Getting a session and changing it: sign in, the second factor, the step-up confirmation, the Business
// switch, signing out (here, another browser's session, everywhere). Each answer that is a session is accepted
// (its CSRF token and identity); signing out forgets everything cached.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { queryKeys } from "../query-keys";
import type { JsonBody } from "../request-body";
import { useApiMutation } from "../use-api-mutation";
import { useAcceptSession, useForgetSession } from "./queries";

export function useSignIn() {
  const accept = useAcceptSession();
  return useApiMutation({
    mutationFn: (body: JsonBody<"/v1/session", "post">) => call(api.POST("/v1/session", { body })),
    onSuccess: accept,
  });
}

export function useVerifySecondFactor() {
  const accept = useAcceptSession();
  return useApiMutation({
    mutationFn: (body: JsonBody<"/v1/session/two-factor", "post">) => call(api.POST("/v1/session/two-factor", { body })),
    onSuccess: accept,
  });
}

/**
 * The step-up confirmation itself (a password, a code or a recovery code). A plain mutation: it is what the
 * step-up dialog sends, so it never asks for a step-up of its own.
 */
export function useConfirmStepUp() {
  const accept = useAcceptSession();
  return useMutation({
    mutationFn: (body: JsonBody<"/v1/session/confirmation", "post">) => call(api.POST("/v1/session/confirmation", { body })),
    onSuccess: accept,
  });
}

export function useSwitchBusiness() {
  const accept = useAcceptSession();
  return useApiMutation({
    mutationFn: (businessId: string) => call(api.POST("/v1/session/business", { body: { business_id: businessId } })),
    onSuccess: accept,
  });
}

/** Sign out of this browser: whatever the API answers, this browser forgets the session. */
export function useSignOut() {
  const forget = useForgetSession();
  return useMutation({
    mutationFn: () => call(api.DELETE("/v1/session")),
    onSettled: forget,
  });
}

/** End another browser's session. Ended or already gone (404): either way the list is read again. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (sessionId: string) => call(api.DELETE("/v1/session/sessions/{sessionId}", { params: { path: { sessionId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.mySessions }),
  });
}

export function useSignOutEverywhere() {
  const forget = useForgetSession();
  return useApiMutation({
    mutationFn: () => call(api.POST("/v1/session/sign-out-everywhere")),
    onSuccess: forget,
  });
}
