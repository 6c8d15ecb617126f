// The environment's webhook endpoint: create it, change its URL and events, enable or disable it, rotate its
// signing secret. The secret appears once (at creation and after a rotation), with a copy button, and is
// kept in this component's memory only until the person hides it or leaves the page.
import { Alert, Badge, Button, Checkbox, Group, Modal, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { ApiError } from "../api/client";
import { setFieldErrors } from "../hooks/api/form-errors";
import { lastError, settle } from "../hooks/api/use-api-mutation";
import { useCreateOrRotateWebhookEndpoint, useUpdateWebhookEndpoint } from "../hooks/api/webhooks/mutations";
import { useWebhookEndpoint } from "../hooks/api/webhooks/queries";
import type { WebhookSubscription } from "../hooks/api/webhooks/types";
import { useSignedIn } from "../lib/session";
import { EVENT_TYPES, type EventType } from "../lib/webhooks";
import { ConfirmButton } from "./ConfirmButton";
import { CopyValue } from "./CopyValue";
import { ErrorAlert } from "./ErrorAlert";
import { Time } from "./Time";

/** Creating the endpoint, or changing its URL and events; `onSaved` gets the new secret of a creation. */
function EndpointForm(props: {
  title: string;
  submitLabel: string;
  /** The endpoint to change; null: create one. */
  current: WebhookSubscription | null;
  onClose: () => void;
  onSaved: (secret: string | null) => void;
}) {
  const { current } = props;
  const create = useCreateOrRotateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const error = lastError(create, update);
  const form = useForm<{ url: string; events: string[] }>({
    initialValues:
      current === null ? { url: "", events: [...EVENT_TYPES] } : { url: current.url, events: [...current.enabled_events] },
  });
  const showRefusal = (refusal: unknown) => {
    setFieldErrors(form, refusal, { aliases: { enabled_events: "events" } });
    // A URL check (422 WEBHOOK_URL_*) is about the URL field though it names no field.
    if (refusal instanceof ApiError && refusal.fieldMessage("url") === undefined && refusal.code.startsWith("WEBHOOK_URL_"))
      form.setFieldError("url", `${refusal.message} (${refusal.code})`);
  };
  const submit = form.onSubmit(({ url: typed, events: chosen }) => {
    const url = typed.trim();
    const events = chosen as EventType[];
    if (current === null)
      create.mutate({ url, events }, { onSuccess: (created) => props.onSaved(created.secret), onError: showRefusal });
    else
      update.mutate(
        { ...(url === current.url ? {} : { url }), enabled_events: events },
        { onSuccess: () => props.onSaved(null), onError: showRefusal },
      );
  });
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered size="lg">
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Endpoint URL"
            description="HTTPS, reachable from the internet; a test request is sent to check it."
            placeholder="https://example.com/webhooks/payouts"
            {...form.getInputProps("url")}
            required
            data-autofocus
          />
          <Checkbox.Group label="Events to send" description="At least one." {...form.getInputProps("events")} required>
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
              {EVENT_TYPES.map((type) => (
                <Checkbox key={type} value={type} label={type} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <ErrorAlert error={error} title="The endpoint was not saved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending} disabled={form.values.events.length === 0}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function WebhookEndpoint() {
  const { environment, membership } = useSignedIn();
  const endpoint = useWebhookEndpoint();
  const rotate = useCreateOrRotateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const error = lastError(rotate, update);
  const [form, setForm] = useState<"create" | "edit" | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const admin = membership.role === "business_admin";
  const setEnabled = (enabled: boolean) => update.mutateAsync({ enabled });

  const current = endpoint.data ?? null;
  return (
    <Stack gap="sm" data-testid="webhook-endpoint">
      <Group justify="space-between">
        <Title order={3} size="h4">
          Endpoint
        </Title>
        {admin && current === null && !endpoint.isPending && !endpoint.isError && (
          <Button onClick={() => setForm("create")}>Add an endpoint</Button>
        )}
      </Group>
      {secret !== null && (
        <Alert
          color="green"
          title="The endpoint's signing secret"
          withCloseButton
          onClose={() => setSecret(null)}
          closeButtonLabel="Hide the secret"
        >
          <Stack gap="xs">
            <Text size="sm">Copy it now: it is shown only once. Any previous secret has stopped working.</Text>
            <CopyValue value={secret} />
          </Stack>
        </Alert>
      )}
      <ErrorAlert error={error ?? endpoint.error} />
      {endpoint.isPending ? (
        <Text c="dimmed">Loading the endpoint…</Text>
      ) : current === null ? (
        !endpoint.isError && (
          <Text c="dimmed" data-testid="no-endpoint">
            No webhook endpoint in the {environment} environment: events are not sent anywhere.
          </Text>
        )
      ) : (
        <Stack gap="xs">
          <Group gap="xs" wrap="wrap">
            <Text fw={600} style={{ wordBreak: "break-all" }} data-testid="endpoint-url">
              {current.url}
            </Text>
            <Badge color={current.enabled ? "teal.9" : "gray.7"} variant="filled" autoContrast data-testid="endpoint-state">
              {current.enabled ? "Enabled" : "Disabled"}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            Created <Time value={current.created_at} /> · {current.enabled_events.length} event
            {current.enabled_events.length === 1 ? "" : "s"}: {current.enabled_events.join(", ")}
          </Text>
          {admin && (
            <Group gap="xs">
              <Button size="xs" variant="default" onClick={() => setForm("edit")}>
                Edit URL and events
              </Button>
              {current.enabled ? (
                <ConfirmButton
                  size="xs"
                  variant="outline"
                  color="red"
                  label="Disable"
                  title="Disable the endpoint?"
                  message="No event is sent while it is disabled, and every pending retry is dropped (not resent when you enable it again)."
                  confirmLabel="Disable endpoint"
                  onConfirm={() => settle(setEnabled(false))}
                />
              ) : (
                <Button size="xs" variant="default" onClick={() => void settle(setEnabled(true))}>
                  Enable
                </Button>
              )}
              <ConfirmButton
                size="xs"
                variant="outline"
                color="red"
                label="Rotate secret"
                title="Rotate the signing secret?"
                message="The current secret stops working at once: your receiver must switch to the new one, shown once after this."
                confirmLabel="Rotate secret"
                onConfirm={() =>
                  settle(
                    rotate
                      .mutateAsync({ url: current.url, events: current.enabled_events as EventType[] })
                      .then((created) => setSecret(created.secret)),
                  )
                }
              />
            </Group>
          )}
        </Stack>
      )}
      {form !== null && (
        <EndpointForm
          title={form === "create" ? "Add a webhook endpoint" : "Edit the webhook endpoint"}
          submitLabel={form === "create" ? "Add endpoint" : "Save"}
          current={form === "edit" ? current : null}
          onClose={() => setForm(null)}
          onSaved={(created) => {
            if (created !== null) setSecret(created);
            setForm(null);
          }}
        />
      )}
    </Stack>
  );
}
