// The team of the Business: its members (everyone reads them) and its pending invitations (admins).
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

/** `retry: false` where the list only adds names to what is shown (a payout's deciders). */
export function useMembers({ retry }: { retry?: boolean } = {}) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.members.all(environment),
    queryFn: () => call(api.GET("/v1/members")),
    ...(retry !== undefined && { retry }),
  });
}

export function useInvitations({ enabled = true }: { enabled?: boolean } = {}) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.invitations.all(environment),
    queryFn: () => call(api.GET("/v1/invitations")),
    enabled,
  });
}
