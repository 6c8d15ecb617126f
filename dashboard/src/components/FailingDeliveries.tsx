// Home: webhook deliveries that are failing (abandoned after 8 attempts, or retrying after a failure), with
// a link to the delivery log filtered to them.
import { Anchor, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { useFailingDeliveries } from "../hooks/api/webhooks/queries";
import { attemptOutcome } from "../lib/webhooks";
import { ErrorAlert } from "./ErrorAlert";
import { Time } from "./Time";
import { DeliveryStatusBadge } from "./WebhookDeliveries";

const SHOWN = 5;
const PAGE = 50;

export function FailingDeliveries() {
  const failing = useFailingDeliveries(PAGE);
  const data = failing.data;
  return (
    <Card withBorder component="section" aria-labelledby="failing-deliveries-heading">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="failing-deliveries-heading">
            Failing webhook deliveries
          </Title>
          <Text fw={700} size="xl" data-testid="failing-deliveries-count">
            {data === undefined ? "…" : `${data.deliveries.length}${data.more ? "+" : ""}`}
          </Text>
        </Group>
        <ErrorAlert error={failing.error} title="Could not load the deliveries" />
        {data !== undefined && data.deliveries.length === 0 && (
          <Text c="dimmed" size="sm" data-testid="no-failing-deliveries">
            No delivery is failing: every event sent lately reached the endpoint or is on its first try.
          </Text>
        )}
        {data !== undefined && data.deliveries.length > 0 && (
          <Table.ScrollContainer minWidth={520}>
            <Table fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Last attempt</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.deliveries.slice(0, SHOWN).map((delivery) => {
                  const last = delivery.attempts[delivery.attempts.length - 1];
                  return (
                    <Table.Tr key={delivery.id} data-testid="failing-delivery-row">
                      <Table.Td>{delivery.event_type}</Table.Td>
                      <Table.Td>
                        <DeliveryStatusBadge status={delivery.status} />
                        {delivery.status === "pending" && (
                          <Text size="xs" c="dimmed">
                            Retrying ({delivery.attempt_count} of 8)
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{last === undefined ? "—" : attemptOutcome(last)}</Table.Td>
                      <Table.Td>
                        <Time value={delivery.created_at} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group gap="md">
          <Anchor component={Link} to="/developers?delivery_status=abandoned#deliveries" size="sm">
            Open the delivery log (abandoned)
          </Anchor>
          <Anchor component={Link} to="/developers?delivery_status=pending#deliveries" size="sm">
            Pending and retrying
          </Anchor>
        </Group>
      </Stack>
    </Card>
  );
}
