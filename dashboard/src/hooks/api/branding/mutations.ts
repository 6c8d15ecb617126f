// Changing the branding (admins, step-up): the answer is the branding now in force, cached as is.
import { useQueryClient } from "@tanstack/react-query";
import { api, call, type Schemas } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";

export type BrandingChanges = Schemas["UpdateBrandingBody"];

export function useUpdateBranding() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: BrandingChanges) => call(api.PATCH("/v1/branding", { body })),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.branding(environment), answer),
  });
}
