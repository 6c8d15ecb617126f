// Changing the Business profile (admins, step-up). The answer replaces the cached profile at once (every date
// shown moves to a new time zone with it); a new name is read again from the session, whose memberships the
// header and the Business switch show.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { BusinessProfileChanges } from "./types";

export function useUpdateBusinessProfile() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (changes: BusinessProfileChanges) => call(api.PATCH("/v1/business", { body: changes })),
    onSuccess: async (answer, changes) => {
      if (session !== null) queryClient.setQueryData(queryKeys.business.profile(session.membership.business_id), answer);
      if ("name" in changes) await queryClient.invalidateQueries({ queryKey: queryKeys.session });
    },
  });
}
