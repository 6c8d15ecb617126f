// API keys of the chosen environment: create (the key is shown once), see when each was last used, revoke.
import { Alert, Button, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, call, type Schemas } from "../api/client";
import { ConfirmButton } from "../components/ConfirmButton";
import { CopyValue } from "../components/CopyValue";
import { type DataColumn, DataList } from "../components/DataList";
import { FormDialog } from "../components/FormDialog";
import { Time } from "../components/Time";
import { WebhooksSection } from "../components/WebhooksSection";
import { type Role, roleName, roleOptions } from "../lib/roles";
import { useSession, useSignedIn } from "../lib/session";

type ApiKey = Schemas["ApiKey"];

export function DevelopersPage() {
  const { environment, membership } = useSignedIn();
  const { withStepUp } = useSession();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [label, setLabel] = useState("");
  const [role, setRole] = useState<Role>("business_read_only");
  const [issued, setIssued] = useState<Schemas["IssuedApiKey"] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const keys = useQuery({ queryKey: [environment, "api-keys"], queryFn: () => call(api.GET("/v1/api-keys")) });
  const admin = membership.role === "business_admin";

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const key = await withStepUp(() => call(api.POST("/v1/api-keys", { body: { label: label.trim(), role } })));
      setIssued(key);
      setCreating(false);
      setLabel("");
      await queryClient.invalidateQueries({ queryKey: [environment, "api-keys"] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (id: string) => {
    setError(null);
    try {
      await withStepUp(() => call(api.DELETE("/v1/api-keys/{id}", { params: { path: { id } } })));
      await queryClient.invalidateQueries({ queryKey: [environment, "api-keys"] });
    } catch (caught) {
      setError(caught);
    }
  };

  const columns: readonly DataColumn<ApiKey>[] = [
    { header: "Label", cell: (key) => key.label ?? "—" },
    { header: "Key", cell: (key) => <code>{key.key_hint}</code> },
    { header: "Role", cell: (key) => roleName(key.role) },
    { header: "Created", cell: (key) => <Time value={key.created_at} /> },
    { header: "Last used", cell: (key) => (key.last_used_at === null ? "Never" : <Time value={key.last_used_at} />) },
    {
      header: "Actions",
      hiddenHeader: true,
      cell: (key) =>
        key.revoked_at !== null ? (
          <Text size="sm" c="dimmed">
            Revoked
          </Text>
        ) : (
          admin && (
            <ConfirmButton
              size="xs"
              color="red"
              variant="outline"
              label="Revoke"
              aria-label={`Revoke ${key.label ?? key.key_hint}`}
              title="Revoke this key?"
              message={`Requests with ${key.key_hint} will be refused at once. This cannot be undone.`}
              confirmLabel="Revoke key"
              onConfirm={() => revoke(key.id)}
            />
          )
        ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Developers</Title>
        {admin && <Button onClick={() => setCreating(true)}>Create API key</Button>}
      </Group>
      <Text c="dimmed" size="sm">
        API keys of the {environment} environment. A key acts for the member who created it, with the lower of its own role and
        theirs.
      </Text>
      {issued !== null && (
        <Alert
          color="green"
          title="Your new API key"
          withCloseButton
          onClose={() => setIssued(null)}
          closeButtonLabel="Hide the key"
        >
          <Stack gap="xs">
            <Text size="sm">Copy it now: it is shown only once.</Text>
            <CopyValue value={issued.key} />
          </Stack>
        </Alert>
      )}
      <DataList
        rows={keys.data?.api_keys ?? []}
        rowKey={(key) => key.id}
        columns={columns}
        query={keys}
        loadingText="Loading keys…"
        error={error ?? keys.error}
        empty="No API keys in this environment."
        rowTestId="api-key-row"
        minWidth={640}
      />
      <FormDialog
        title="Create an API key"
        opened={creating}
        onClose={() => setCreating(false)}
        onSubmit={create}
        submitLabel="Create key"
        busy={busy}
        error={error}
      >
        <TextInput
          label="Name"
          description="Where the key is used, such as “billing-service”"
          value={label}
          onChange={(e) => setLabel(e.currentTarget.value)}
          required
          data-autofocus
        />
        <Select
          label="Role"
          data={roleOptions(true)}
          value={role}
          onChange={(value) => setRole((value as Role | null) ?? "business_read_only")}
          allowDeselect={false}
        />
      </FormDialog>
      <WebhooksSection />
    </Stack>
  );
}
