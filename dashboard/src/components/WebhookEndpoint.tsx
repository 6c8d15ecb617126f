// The environment's webhook endpoint: create it, change its URL and events, enable or disable it, rotate its
// signing secret. The secret appears once (at creation and after a rotation), with a copy button, and is
// kept in this component's memory only until the person hides it or leaves the page.
import { Alert, Badge, Button, Checkbox, Group, Modal, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api, call, type Schemas } from "../api/client";
import { useSession, useSignedIn } from "../lib/session";
import { EVENT_TYPES, type EventType } from "../lib/webhooks";
import { ConfirmButton } from "./ConfirmButton";
import { CopyValue } from "./CopyValue";
import { ErrorAlert } from "./ErrorAlert";
import { Time } from "./Time";

type Subscription = Schemas["WebhookSubscription"];

/** The endpoint, or null when the environment has none (the API answers 404). */
export function useWebhookEndpoint() {
  const { environment } = useSignedIn();
  return useQuery({
    queryKey: [environment, "webhook-subscription"],
    queryFn: async (): Promise<Subscription | null> => {
      try {
        return await call(api.GET("/v1/webhook-subscriptions"));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** The message for the URL field: a detail about `url`, or one of the URL checks (422), with its code. */
function urlError(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const detail = error.fieldMessage("url");
  if (detail !== undefined) return detail;
  return error.code.startsWith("WEBHOOK_URL_") ? `${error.message} (${error.code})` : undefined;
}

function EndpointForm(props: {
  title: string;
  submitLabel: string;
  initial: { url: string; events: EventType[] };
  onClose: () => void;
  onSubmit: (url: string, events: EventType[]) => Promise<void>;
}) {
  const [url, setUrl] = useState(props.initial.url);
  const [events, setEvents] = useState<string[]>(props.initial.events);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await props.onSubmit(url.trim(), events as EventType[]);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const eventsError = error instanceof ApiError ? error.fieldMessage("enabled_events") : undefined;
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered size="lg">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput
            label="Endpoint URL"
            description="HTTPS, reachable from the internet; a test request is sent to check it."
            placeholder="https://example.com/webhooks/payouts"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={urlError(error)}
            required
            data-autofocus
          />
          <Checkbox.Group
            label="Events to send"
            description="At least one."
            value={events}
            onChange={setEvents}
            error={eventsError}
            required
          >
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
            <Button type="submit" loading={busy} disabled={events.length === 0}>
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
  const { withStepUp } = useSession();
  const queryClient = useQueryClient();
  const endpoint = useWebhookEndpoint();
  const [form, setForm] = useState<"create" | "edit" | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const admin = membership.role === "business_admin";
  const refresh = () => queryClient.invalidateQueries({ queryKey: [environment, "webhook-subscription"] });

  // POST creates the endpoint or, when one exists, rotates its secret (and sets url and events as sent).
  const createOrRotate = async (url: string, events: EventType[]) => {
    const created = await withStepUp(() =>
      call(api.POST("/v1/webhook-subscriptions", { body: { url, enabled_events: events } })),
    );
    setSecret(created.secret);
    setForm(null);
    await refresh();
  };
  const update = async (body: Schemas["UpdateWebhookSubscriptionRequest"]) => {
    await withStepUp(() => call(api.PATCH("/v1/webhook-subscriptions", { body })));
    setForm(null);
    await refresh();
  };
  const act = async (action: () => Promise<void>) => {
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    }
  };

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
                  onConfirm={() => act(() => update({ enabled: false }))}
                />
              ) : (
                <Button size="xs" variant="default" onClick={() => void act(() => update({ enabled: true }))}>
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
                onConfirm={() => act(() => createOrRotate(current.url, current.enabled_events as EventType[]))}
              />
            </Group>
          )}
        </Stack>
      )}
      {form !== null && (
        <EndpointForm
          title={form === "create" ? "Add a webhook endpoint" : "Edit the webhook endpoint"}
          submitLabel={form === "create" ? "Add endpoint" : "Save"}
          initial={
            form === "edit" && current !== null
              ? { url: current.url, events: current.enabled_events as EventType[] }
              : { url: "", events: [...EVENT_TYPES] }
          }
          onClose={() => setForm(null)}
          onSubmit={(url, events) =>
            form === "create" || current === null
              ? createOrRotate(url, events)
              : update({
                  ...(url === current.url ? {} : { url }),
                  enabled_events: events,
                })
          }
        />
      )}
    </Stack>
  );
}
