// The team: members and their roles, pending invitations; admins invite (step-up) and revoke invitations.
import { Button, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, call, type Schemas } from "../api/client";
import { ConfirmButton } from "../components/ConfirmButton";
import { type DataColumn, DataList } from "../components/DataList";
import { ErrorAlert } from "../components/ErrorAlert";
import { FormDialog } from "../components/FormDialog";
import { MemberActions } from "../components/MemberActions";
import { Time } from "../components/Time";
import { type Role, roleName, roleOptions } from "../lib/roles";
import { useSession, useSignedIn } from "../lib/session";

type Member = Schemas["MemberList"]["members"][number];
type Invitation = Schemas["Invitation"];

export function TeamPage() {
  const { environment, membership } = useSignedIn();
  const { withStepUp } = useSession();
  const queryClient = useQueryClient();
  const admin = membership.role === "business_admin";
  const members = useQuery({ queryKey: [environment, "members"], queryFn: () => call(api.GET("/v1/members")) });
  const invitations = useQuery({
    queryKey: [environment, "invitations"],
    queryFn: () => call(api.GET("/v1/invitations")),
    enabled: admin,
  });
  const [inviting, setInviting] = useState(false);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("business_approver");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await withStepUp(() => call(api.POST("/v1/invitations", { body: { email: email.trim(), role } })));
      setSentTo(created.email);
      setInviting(false);
      setEmail("");
      await queryClient.invalidateQueries({ queryKey: [environment, "invitations"] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (invitationId: string) => {
    setError(null);
    try {
      await withStepUp(() => call(api.DELETE("/v1/invitations/{invitationId}", { params: { path: { invitationId } } })));
      await queryClient.invalidateQueries({ queryKey: [environment, "invitations"] });
    } catch (caught) {
      setError(caught);
    }
  };

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
          onConfirm={() => revoke(i.id)}
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
        onSubmit={invite}
        submitLabel="Send invitation"
        busy={busy}
        error={error}
      >
        <TextInput
          label="Email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          required
          data-autofocus
        />
        <Select
          label="Role"
          data={roleOptions()}
          value={role}
          onChange={(value) => setRole((value as Role | null) ?? "business_approver")}
          allowDeselect={false}
        />
      </FormDialog>
    </Stack>
  );
}
