// An admin's actions on one member of the team: change the role, remove the member. Both need a recent
// confirmation (step-up); the API's refusal (LAST_ADMIN: a Business always keeps one admin) is shown in the
// member's own row, where the person acted.
import { Group, NativeSelect, Stack, Text } from "@mantine/core";
import { ApiError } from "../api/client";
import { useChangeMemberRole, useRemoveMember } from "../hooks/api/team/mutations";
import type { Member } from "../hooks/api/team/types";
import { lastError, settle } from "../hooks/api/use-api-mutation";
import { type Role, roleOptions } from "../lib/roles";
import { ConfirmButton } from "./ConfirmButton";

export function MemberActions({ member }: { member: Member }) {
  const changeRole = useChangeMemberRole();
  const remove = useRemoveMember();
  const error = lastError(changeRole, remove);

  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap">
        <NativeSelect
          size="xs"
          aria-label={`Role of ${member.email}`}
          data={roleOptions()}
          value={member.role}
          disabled={changeRole.isPending}
          onChange={(e) => {
            const role = e.currentTarget.value as Role;
            if (role !== member.role) changeRole.mutate({ membershipId: member.id, role });
          }}
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
          onConfirm={() => settle(remove.mutateAsync(member.id))}
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
