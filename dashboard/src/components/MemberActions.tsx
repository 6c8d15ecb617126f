// An admin's actions on one member of the team: change the role, remove the member. Both need a recent
// confirmation (step-up); the API's refusal (LAST_ADMIN: a Business always keeps one admin) is shown in the
// member's own row, where the person acted.
import { Group, NativeSelect, Stack, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, api, call, type Schemas } from "../api/client";
import { type Role, roleOptions } from "../lib/roles";
import { useSession, useSignedIn } from "../lib/session";
import { ConfirmButton } from "./ConfirmButton";

type Member = Schemas["MemberList"]["members"][number];

export function MemberActions({ member }: { member: Member }) {
  const { environment } = useSignedIn();
  const { withStepUp } = useSession();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const path = { params: { path: { membershipId: member.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: [environment, "members"] });

  const changeRole = async (role: Role) => {
    if (role === member.role) return;
    setBusy(true);
    setError(null);
    try {
      await withStepUp(() => call(api.PATCH("/v1/members/{membershipId}", { ...path, body: { role } })));
      await refresh();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setError(null);
    try {
      await withStepUp(() => call(api.DELETE("/v1/members/{membershipId}", path)));
      await refresh();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap">
        <NativeSelect
          size="xs"
          aria-label={`Role of ${member.email}`}
          data={roleOptions()}
          value={member.role}
          disabled={busy}
          onChange={(e) => void changeRole(e.currentTarget.value as Role)}
        />
        <ConfirmButton
          size="xs"
          variant="outline"
          color="red"
          label="Remove"
          aria-label={`Remove ${member.email}`}
          title="Remove this member?"
          message={`${member.email} loses access to this Business at once; their sessions here end.`}
          confirmLabel="Remove member"
          onConfirm={remove}
        />
      </Group>
      {error !== null && (
        <Text size="xs" c="red.9" role="alert" data-testid="member-error">
          {error instanceof ApiError ? `${error.message} (${error.code})` : "That did not work."}
        </Text>
      )}
    </Stack>
  );
}
