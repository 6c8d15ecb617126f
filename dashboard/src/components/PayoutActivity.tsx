// A payout's recorded events (GET /v1/events?subject_id=…, newest first, exactly what webhooks send) and the
// webhook deliveries of those events (GET /v1/webhook-deliveries?subject_id=…) with each attempt's outcome.
// Both are read-only; redelivery stays on the deliveries API (a write the developers' tools own).
import { Badge, Button, Code, Group, Stack, Table, Text, Timeline, Title } from "@mantine/core";
import { useState } from "react";
import type { Schemas } from "../api/client";
import { usePayoutDeliveries, usePayoutEvents } from "../hooks/api/payouts/queries";
import { ErrorAlert } from "./ErrorAlert";
import { Time } from "./Time";

type Delivery = Schemas["WebhookDelivery"];

const DELIVERY_COLORS: Record<Delivery["status"], string> = {
  pending: "yellow.9",
  succeeded: "teal.9",
  abandoned: "red.9",
  dropped: "gray.7",
};

function EventData({ data }: { data: Record<string, unknown> }) {
  const [open, setOpen] = useState(false);
  return (
    <Stack gap={4} align="flex-start">
      <Button variant="default" size="compact-xs" onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? "Hide data" : "Show data"}
      </Button>
      {open && (
        <Code block maw="100%" style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
          {JSON.stringify(data, null, 2)}
        </Code>
      )}
    </Stack>
  );
}

export function PayoutActivity({ payoutId }: { payoutId: string }) {
  const events = usePayoutEvents(payoutId);
  const deliveries = usePayoutDeliveries(payoutId);
  const list = events.data?.pages.flatMap((page) => page.events) ?? [];
  const sent = deliveries.data?.deliveries ?? [];

  return (
    <Stack>
      <Title order={2} size="h3">
        Events
      </Title>
      <ErrorAlert error={events.error} title="Could not load the events" />
      {events.isPending ? (
        <Text c="dimmed">Loading events…</Text>
      ) : list.length === 0 && events.error === null ? (
        <Text c="dimmed" data-testid="events-empty">
          No events recorded for this payout yet.
        </Text>
      ) : (
        <Timeline active={list.length} bulletSize={14} lineWidth={2} data-testid="event-timeline">
          {list.map((event) => (
            <Timeline.Item key={event.id} title={event.type} data-testid="event-item">
              <Text size="xs" c="dimmed">
                <Time value={event.occurred_at} /> · sequence {event.sequence}
              </Text>
              <EventData data={event.data} />
            </Timeline.Item>
          ))}
        </Timeline>
      )}
      {events.hasNextPage && (
        <Group>
          <Button variant="default" onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>
            Older events
          </Button>
        </Group>
      )}
      <Title order={2} size="h3">
        Webhook deliveries
      </Title>
      <ErrorAlert error={deliveries.error} title="Could not load the webhook deliveries" />
      {deliveries.isPending ? (
        <Text c="dimmed">Loading deliveries…</Text>
      ) : sent.length === 0 && deliveries.error === null ? (
        <Text c="dimmed" data-testid="deliveries-empty">
          No webhook was sent for this payout's events (no endpoint subscribed to them).
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table data-testid="deliveries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Last answer</Table.Th>
                <Table.Th>Next attempt</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sent.map((delivery) => {
                const last = delivery.attempts.at(-1);
                return (
                  <Table.Tr key={delivery.id} data-testid="delivery-row">
                    <Table.Td>
                      {delivery.event_type}
                      <Text size="xs" c="dimmed">
                        <Time value={delivery.occurred_at} />
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={DELIVERY_COLORS[delivery.status]} variant="filled" autoContrast>
                        {delivery.status}
                      </Badge>
                      {delivery.final_reason !== null && (
                        <Text size="xs" c="dimmed">
                          {delivery.final_reason}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{delivery.attempt_count}</Table.Td>
                    <Table.Td>
                      {last === undefined
                        ? "—"
                        : `${last.status_code ?? last.error_class ?? "no answer"} · ${last.duration_ms} ms`}
                    </Table.Td>
                    <Table.Td>
                      <Time value={delivery.next_attempt_at} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
