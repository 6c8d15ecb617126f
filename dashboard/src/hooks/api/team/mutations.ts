// An admin's changes to the team; each asks for a recent confirmation (step-up, through useApiMutation) and
// reads again what it changed.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import type { Role } from "../../../lib/roles";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { InvitationInput } from "./types";

export function useInviteMember() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: InvitationInput) => call(api.POST("/v1/invitations", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.invitations.all(environment) }),
  });
}

export function useRevokeInvitation() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (invitationId: string) =>
      call(api.DELETE("/v1/invitations/{invitationId}", { params: { path: { invitationId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.invitations.all(environment) }),
  });
}

export function useChangeMemberRole() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({ membershipId, role }: { membershipId: string; role: Role }) =>
      call(api.PATCH("/v1/members/{membershipId}", { params: { path: { membershipId } }, body: { role } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.members.all(environment) }),
  });
}

export function useRemoveMember() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (membershipId: string) => call(api.DELETE("/v1/members/{membershipId}", { params: { path: { membershipId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.members.all(environment) }),
  });
}
