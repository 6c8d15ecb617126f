// What needs me now: payouts awaiting a Decision, failed and returned payouts of the last seven days. The
// seven days are calendar days of the dashboard's time zone, today included, and "today" is the server's
// (the volume answer's `until`), not the browser's clock, which may be wrong and is not what stamped the
// payouts.
import { Anchor, Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { ErrorAlert } from "../components/ErrorAlert";
import { FailingDeliveries } from "../components/FailingDeliveries";
import { HomeVolume } from "../components/HomeVolume";
import { Money } from "../components/Money";
import { StatusBadge } from "../components/StatusBadge";
import { Time } from "../components/Time";
import { TimeZoneNote } from "../components/TimeZoneNote";
import { usePayoutProblems, usePayoutVolume, usePendingCount } from "../hooks/api/payouts/summary-queries";
import { useSignedIn } from "../lib/session";
import { addDays } from "../lib/time";

const WEEK_DAYS = 7;

export function HomePage() {
  const { membership } = useSignedIn();
  const pending = usePendingCount();
  const volume = usePayoutVolume();
  const zone = volume.data?.time_zone;
  const firstDay = volume.data === undefined ? undefined : addDays(volume.data.until, -(WEEK_DAYS - 1));
  const problems = usePayoutProblems(zone, firstDay);
  return (
    <Stack>
      <Title order={1}>Home</Title>
      <Text c="dimmed">{membership.business_name}</Text>
      <TimeZoneNote />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Awaiting approval
          </Text>
          <Text size="xl" fw={700} data-testid="pending-count">
            {pending.data === undefined ? "…" : `${pending.data.count}${pending.data.more ? "+" : ""}`}
          </Text>
          <Anchor component={Link} to="/approvals" size="sm">
            Open the approval inbox
          </Anchor>
        </Card>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Failed or returned, last 7 days
          </Text>
          <Text size="xl" fw={700}>
            {problems.data === undefined ? "…" : problems.data.length}
          </Text>
          <Anchor component={Link} to="/payouts?status=failed" size="sm">
            See failed payouts
          </Anchor>
        </Card>
      </SimpleGrid>
      <ErrorAlert error={pending.error ?? problems.error} />
      {problems.data !== undefined && problems.data.length > 0 && (
        <>
          <Title order={2} size="h3">
            Needs attention
          </Title>
          <Table.ScrollContainer minWidth={560}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Payout</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Amount</Table.Th>
                  <Table.Th>Updated</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {problems.data.map((p) => (
                  <Table.Tr key={p.payout_id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/payouts/${p.payout_id}`}>
                        {p.external_ref ?? p.payout_id.slice(0, 8)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={p.status} />
                    </Table.Td>
                    <Table.Td>
                      <Money minor={p.amount_minor} currency={p.currency} />
                    </Table.Td>
                    <Table.Td>
                      <Time value={p.updated_at} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
      <FailingDeliveries />
      <HomeVolume />
      <Group />
    </Stack>
  );
}
