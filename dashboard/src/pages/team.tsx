// The team: members and their roles, pending invitations; admins invite (step-up) and revoke invitations.
// The example of the data layer (README, "Reading and writing"): queries and mutations from hooks/api/team,
// the invitation form a @mantine/form whose fields take the API's refusals.
import { Button, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { ConfirmButton } from "../components/ConfirmButton";
import { type DataColumn, DataList } from "../components/DataList";
import { ErrorAlert } from "../components/ErrorAlert";
import { FormDialog } from "../components/FormDialog";
import { MemberActions } from "../components/MemberActions";
import { Time } from "../components/Time";
import { setFieldErrors } from "../hooks/api/form-errors";
import { useInviteMember, useRevokeInvitation } from "../hooks/api/team/mutations";
import { useInvitations, useMembers } from "../hooks/api/team/queries";
import type { Invitation, Member } from "../hooks/api/team/types";
import { lastError, settle } from "../hooks/api/use-api-mutation";
import { type Role, roleName, roleOptions } from "../lib/roles";
import { useSignedIn } from "../lib/session";

export function TeamPage() {
  const { membership } = useSignedIn();
  const admin = membership.role === "business_admin";
  const members = useMembers();
  const invitations = useInvitations({ enabled: admin });
  const invite = useInviteMember();
  const revoke = useRevokeInvitation();
  const [inviting, setInviting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<{ email: string; role: Role }>({ initialValues: { email: "", role: "business_approver" } });
  const error = lastError(invite, revoke);

  const submit = form.onSubmit(({ email, role }) =>
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (created) => {
          setSentTo(created.email);
          setInviting(false);
          form.setFieldValue("email", "");
        },
        onError: (refusal) => setFieldErrors(form, refusal),
      },
    ),
  );

  const memberColumns: readonly DataColumn<Member>[] = [
    { header: "Email", cell: (m) => m.email },
    { header: "Role", cell: (m) => roleName(m.role) },
    { header: "Two-factor", cell: (m) => (m.two_factor_enabled ? "On" : "Off") },
    { header: "Last sign-in", cell: (m) => (m.last_sign_in_at === null ? "Never" : <Time value={m.last_sign_in_at} />) },
    ...(admin ? [{ header: "Change", cell: (m: Member) => <MemberActions member={m} /> }] : []),
  ];
  const invitationColumns: readonly DataColumn<Invitation>[] = [
    { header: "Email", cell: (i) => i.email },
    { header: "Role", cell: (i) => roleName(i.role) },
    { header: "Expires", cell: (i) => <Time value={i.expires_at} /> },
    {
      header: "Actions",
      hiddenHeader: true,
      cell: (i) => (
        <ConfirmButton
          size="xs"
          variant="outline"
          color="red"
          label="Revoke"
          aria-label={`Revoke the invitation of ${i.email}`}
          title="Revoke this invitation?"
          message={`${i.email} will not be able to join with it.`}
          confirmLabel="Revoke invitation"
          onConfirm={() => settle(revoke.mutateAsync(i.id))}
        />
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Team</Title>
        {admin && <Button onClick={() => setInviting(true)}>Invite a member</Button>}
      </Group>
      {sentTo !== null && (
        <Text role="status" c="teal.9">
          Invitation sent to {sentTo}.
        </Text>
      )}
      <ErrorAlert error={error} />
      <Title order={2} size="h3">
        Members
      </Title>
      <DataList
        rows={members.data?.members ?? []}
        rowKey={(m) => m.id}
        columns={memberColumns}
        query={members}
        loadingText="Loading members…"
        empty="No members."
        minWidth={560}
      />
      {admin && (
        <>
          <Title order={2} size="h3">
            Pending invitations
          </Title>
          <DataList
            rows={invitations.data?.invitations ?? []}
            rowKey={(i) => i.id}
            columns={invitationColumns}
            query={invitations}
            loadingText="Loading invitations…"
            empty="No pending invitations."
            minWidth={560}
          />
        </>
      )}
      <FormDialog
        title="Invite a member"
        opened={inviting}
        onClose={() => setInviting(false)}
        onSubmit={submit}
        submitLabel="Send invitation"
        busy={invite.isPending}
        error={error}
      >
        <TextInput label="Email" type="email" required data-autofocus {...form.getInputProps("email")} />
        <Select label="Role" data={roleOptions()} allowDeselect={false} {...form.getInputProps("role")} />
      </FormDialog>
    </Stack>
  );
}
