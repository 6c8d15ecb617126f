// API keys of the chosen environment: create (the key is shown once), see when each was last used, revoke.
import { Alert, Button, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { ConfirmButton } from "../components/ConfirmButton";
import { CopyValue } from "../components/CopyValue";
import { type DataColumn, DataList } from "../components/DataList";
import { FormDialog } from "../components/FormDialog";
import { Time } from "../components/Time";
import { WebhooksSection } from "../components/WebhooksSection";
import { useCreateApiKey, useRevokeApiKey } from "../hooks/api/api-keys/mutations";
import { useApiKeys } from "../hooks/api/api-keys/queries";
import type { ApiKey, IssuedApiKey } from "../hooks/api/api-keys/types";
import { setFieldErrors } from "../hooks/api/form-errors";
import { lastError, settle } from "../hooks/api/use-api-mutation";
import { type Role, roleName, roleOptions } from "../lib/roles";
import { useSignedIn } from "../lib/session";

export function DevelopersPage() {
  const { environment, membership } = useSignedIn();
  const [creating, setCreating] = useState(false);
  const [issued, setIssued] = useState<IssuedApiKey | null>(null);
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const error = lastError(create, revoke);
  const form = useForm<{ label: string; role: Role }>({ initialValues: { label: "", role: "business_read_only" } });
  const admin = membership.role === "business_admin";

  const submit = form.onSubmit(({ label, role }) =>
    create.mutate(
      { label: label.trim(), role },
      {
        onSuccess: (key) => {
          setIssued(key);
          setCreating(false);
          form.setFieldValue("label", "");
        },
        onError: (refusal) => setFieldErrors(form, refusal),
      },
    ),
  );

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
              onConfirm={() => settle(revoke.mutateAsync(key.id))}
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
        onSubmit={submit}
        submitLabel="Create key"
        busy={create.isPending}
        error={error}
      >
        <TextInput
          label="Name"
          description="Where the key is used, such as “billing-service”"
          required
          data-autofocus
          {...form.getInputProps("label")}
        />
        <Select label="Role" data={roleOptions(true)} allowDeselect={false} {...form.getInputProps("role")} />
      </FormDialog>
      <WebhooksSection />
    </Stack>
  );
}
