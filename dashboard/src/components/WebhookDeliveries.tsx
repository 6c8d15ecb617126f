// The delivery log: deliveries newest first, filtered by status and event type (kept in the address, so Home
// can link to "abandoned"; each change a history entry), in cursor pages; each delivery opens to its attempts (time, status, latency,
// error). An abandoned delivery can be redelivered after a confirmation.
import { Badge, Button, Group, Select, Stack, Text, Title } from "@mantine/core";
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { settle } from "../hooks/api/use-api-mutation";
import { useRedeliver } from "../hooks/api/webhooks/mutations";
import { useWebhookDeliveries } from "../hooks/api/webhooks/queries";
import { useSignedIn } from "../lib/session";
import { useUrlFilters } from "../lib/url-filters";
import { useCursorPages } from "../lib/use-cursor-pages";
import {
  attemptOutcome,
  DELIVERY_STATUS_COLORS,
  DELIVERY_STATUS_LABELS,
  type Delivery,
  type DeliveryStatus,
  EVENT_TYPES,
  type EventType,
} from "../lib/webhooks";
import { ConfirmButton } from "./ConfirmButton";
import { type DataColumn, DataList } from "./DataList";
import { Time } from "./Time";

const PAGE_SIZE = 20;
const STATUS_PARAM = "delivery_status";
const TYPE_PARAM = "event_type";

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge color={DELIVERY_STATUS_COLORS[status]} variant="filled" autoContrast>
      {DELIVERY_STATUS_LABELS[status]}
    </Badge>
  );
}

type Attempt = Delivery["attempts"][number];

const ATTEMPT_COLUMNS: readonly DataColumn<Attempt>[] = [
  {
    header: "Attempt",
    cell: (attempt) => `${attempt.series > 1 ? `Redelivery ${attempt.series - 1}, ` : ""}#${attempt.attempt_number}`,
  },
  { header: "Sent", cell: (attempt) => <Time value={attempt.sent_at} /> },
  { header: "Result", cell: (attempt) => `${attempt.succeeded ? "Succeeded" : "Failed"} · ${attemptOutcome(attempt)}` },
  {
    header: "Latency",
    cell: (attempt) => `${attempt.duration_ms} ms`,
    cellProps: () => ({ style: { fontVariantNumeric: "tabular-nums" } }),
  },
];

function Attempts({ delivery }: { delivery: Delivery }) {
  return (
    <DataList
      rows={delivery.attempts}
      rowKey={(attempt) => `${attempt.series}-${attempt.attempt_number}`}
      columns={ATTEMPT_COLUMNS}
      empty="No attempt yet."
      rowTestId="attempt-row"
      minWidth={480}
      caption={`Attempts of delivery ${delivery.id}, oldest first`}
      tableProps={{ withTableBorder: true, fz: "sm", "data-testid": "attempts" }}
    />
  );
}

export function WebhookDeliveries() {
  const { membership } = useSignedIn();
  const { params, setFilter } = useUrlFilters();
  const status = (params.get(STATUS_PARAM) ?? undefined) as DeliveryStatus | undefined;
  const eventType = (params.get(TYPE_PARAM) ?? undefined) as EventType | undefined;
  // Only this log's own filters start its pages again (the address also holds the page's other state).
  const pages = useCursorPages(`${status ?? ""}|${eventType ?? ""}`);
  const cursor = pages.cursor;
  const [open, setOpen] = useState<string | null>(null);
  const redeliver = useRedeliver();
  const admin = membership.role === "business_admin";
  const { hash } = useLocation();
  // Home links here with #deliveries: the log is below the API keys, so bring it into view.
  useEffect(() => {
    if (hash === "#deliveries") document.getElementById("deliveries")?.scrollIntoView();
  }, [hash]);

  const page = useWebhookDeliveries({ status, eventType }, cursor, PAGE_SIZE);
  // Said once the redelivery has started (and the log has been read again); a new attempt clears it.
  const notice = redeliver.isSuccess ? "Redelivery started: up to 8 new attempts, on the same schedule." : null;

  const columns: readonly DataColumn<Delivery>[] = [
    {
      header: "Event",
      cell: (delivery) => (
        <>
          <Text size="sm" fw={600}>
            {delivery.event_type}
          </Text>
          <Text size="xs" c="dimmed" style={{ wordBreak: "break-all" }}>
            {delivery.id}
          </Text>
        </>
      ),
    },
    {
      header: "Status",
      // Wide enough for "Abandoned" without the badge's ellipsis.
      width: 130,
      cell: (delivery) => (
        <>
          <DeliveryStatusBadge status={delivery.status} />
          {delivery.status === "pending" && delivery.next_attempt_at !== null && (
            <Text size="xs" c="dimmed">
              Next <Time value={delivery.next_attempt_at} />
            </Text>
          )}
        </>
      ),
    },
    { header: "Created", cell: (delivery) => <Time value={delivery.created_at} /> },
    { header: "Attempts", cell: (delivery) => delivery.attempts.length },
    {
      header: "Last result",
      cell: (delivery) => {
        const last = delivery.attempts.at(-1);
        return last === undefined ? "—" : `${attemptOutcome(last)} · ${last.duration_ms} ms`;
      },
    },
    {
      header: "Actions",
      hiddenHeader: true,
      cell: (delivery) => {
        const expanded = open === delivery.id;
        return (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              aria-expanded={expanded}
              aria-controls={`attempts-${delivery.id}`}
              onClick={() => setOpen(expanded ? null : delivery.id)}
            >
              {expanded ? "Hide attempts" : "Attempts"}
            </Button>
            {admin && delivery.status === "abandoned" && (
              <ConfirmButton
                size="xs"
                label="Redeliver"
                aria-label={`Redeliver ${delivery.event_type} ${delivery.id}`}
                title="Redeliver this event?"
                message="It is sent again to the current endpoint with the same id (receivers deduplicate on it), up to 8 attempts on the usual schedule."
                confirmLabel="Redeliver"
                onConfirm={() => settle(redeliver.mutateAsync(delivery.id))}
              />
            )}
          </Group>
        );
      },
    },
  ];

  return (
    <Stack gap="sm" id="deliveries">
      <Title order={3} size="h4">
        Delivery log
      </Title>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Status"
          w={180}
          data={[
            { value: "", label: "All statuses" },
            ...(Object.keys(DELIVERY_STATUS_LABELS) as DeliveryStatus[]).map((value) => ({
              value,
              label: DELIVERY_STATUS_LABELS[value],
            })),
          ]}
          value={status ?? ""}
          onChange={(value) => setFilter(STATUS_PARAM, value)}
          allowDeselect={false}
        />
        <Select
          label="Event type"
          w={300}
          maw="100%"
          data={[{ value: "", label: "All event types" }, ...EVENT_TYPES.map((value) => ({ value, label: value }))]}
          value={eventType ?? ""}
          onChange={(value) => setFilter(TYPE_PARAM, value)}
          allowDeselect={false}
        />
      </Group>
      {notice !== null && (
        <Text size="sm" role="status" c="teal.9">
          {notice}
        </Text>
      )}
      <DataList
        rows={page.data?.deliveries ?? []}
        rowKey={(delivery) => delivery.id}
        columns={columns}
        query={page}
        loadingText="Loading deliveries…"
        error={redeliver.error ?? page.error}
        empty="No deliveries match."
        emptyTestId="no-deliveries"
        rowTestId="delivery-row"
        minWidth={720}
        detail={{
          id: (delivery) => `attempts-${delivery.id}`,
          render: (delivery) =>
            open !== delivery.id ? null : (
              <>
                {delivery.final_reason !== null && (
                  <Text size="sm" mb="xs">
                    Stopped: {delivery.final_reason.replaceAll("_", " ")}
                  </Text>
                )}
                <Attempts delivery={delivery} />
              </>
            ),
        }}
        pager={{ pages, nextCursor: page.data?.next_cursor, label: "Delivery log pages", size: "xs" }}
      />
    </Stack>
  );
}
