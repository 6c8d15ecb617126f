// Getting in without a session: registering a Business (and its e-mailed token), a forgotten password (the
// request and the new password), accepting an invitation. Nothing cached changes: each page shows the answer.
import { api, call } from "../../../api/client";
import type { JsonBody } from "../request-body";
import { useApiMutation } from "../use-api-mutation";

export function useRegister() {
  return useApiMutation({
    mutationFn: (body: JsonBody<"/v1/registration", "post">) => call(api.POST("/v1/registration", { body })),
  });
}

export function useVerifyRegistration() {
  return useApiMutation({
    mutationFn: (body: JsonBody<"/v1/registration/verification", "post">) =>
      call(api.POST("/v1/registration/verification", { body })),
  });
}

export function useRequestPasswordReset() {
  return useApiMutation({
    mutationFn: (body: JsonBody<"/v1/password-resets", "post">) => call(api.POST("/v1/password-resets", { body })),
  });
}

export function useResetPassword() {
  return useApiMutation({
    mutationFn: (body: JsonBody<"/v1/password-resets/confirmation", "post">) =>
      call(api.POST("/v1/password-resets/confirmation", { body })),
  });
}

export function useAcceptInvitation() {
  return useApiMutation({
    mutationFn: (body: JsonBody<"/v1/invitations/acceptance", "post">) => call(api.POST("/v1/invitations/acceptance", { body })),
  });
}
