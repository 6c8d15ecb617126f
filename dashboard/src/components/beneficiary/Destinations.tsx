// A Beneficiary's destinations, masked: the holder's name with its payee name check, rail status, payout
// usability, the rail's rejection reason, which one is declared; an admin declares a usable one or deletes one (confirmed).
import { Badge, Button, Card, Group, Table, Text, Title } from "@mantine/core";
import type { Beneficiary, Destination } from "../../hooks/api/beneficiaries/types";
import { countryLabel, currencyLabel, destinationStatusName, schemeName } from "../../lib/labels";
import { ConfirmButton } from "../ConfirmButton";
import { ErrorAlert } from "../ErrorAlert";
import { NameCheck } from "../NameCheck";

export function Destinations(props: {
  b: Beneficiary;
  list: readonly Destination[] | undefined;
  error: unknown;
  admin: boolean;
  onDeclare: (destinationId: string) => void;
  /** Settles once the deletion is done or refused (the page shows the refusal). */
  onDelete: (destinationId: string) => Promise<void>;
}) {
  const { b, list, admin, onDeclare, onDelete } = props;
  return (
    <Card withBorder>
      <Title order={2} size="h3" mb="sm">
        Destinations
      </Title>
      <ErrorAlert error={props.error} title="Could not load the destinations" />
      {list === undefined ? (
        props.error === null && <Text c="dimmed">Loading destinations…</Text>
      ) : list.length === 0 ? (
        <Text c="dimmed" data-testid="destinations-empty">
          No destination yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Destination</Table.Th>
                <Table.Th>Holder</Table.Th>
                <Table.Th>Rail status</Table.Th>
                <Table.Th>Usable for payouts</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((d) => {
                const declared = b.declared_destination_id === d.id;
                const label = `${d.kind === "card" ? "Card" : "Account"} •••• ${d.last4}`;
                return (
                  <Table.Tr key={d.id} data-testid="destination-row">
                    <Table.Td>
                      <Text size="sm">
                        {label} · {currencyLabel(d.currency)} · {countryLabel(d.country)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {schemeName(d.scheme)}
                        {d.bank_name === null ? "" : ` · ${d.bank_name}`}
                      </Text>
                      {declared && (
                        <Badge size="sm" color="blue.8" variant="filled">
                          Declared
                        </Badge>
                      )}
                      {/* In the first column, so Declare and Delete stay on screen at phone width (the
                          table scrolls sideways beyond it). */}
                      {admin && (
                        <Group gap="xs" wrap="nowrap" mt={6}>
                          {!declared && d.payout_usable && (
                            <Button size="xs" variant="default" aria-label={`Declare ${label}`} onClick={() => onDeclare(d.id)}>
                              Declare
                            </Button>
                          )}
                          <ConfirmButton
                            size="xs"
                            color="red"
                            variant="light"
                            label="Delete"
                            aria-label={`Delete ${label}`}
                            title={`Delete ${label}?`}
                            message="Payouts can no longer use it. Payouts already made keep it."
                            confirmLabel="Delete"
                            onConfirm={() => onDelete(d.id)}
                          />
                        </Group>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{d.account_holder_name}</Text>
                      <NameCheck facts={d} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{destinationStatusName(d.status)}</Text>
                      {d.rail_rejection_reason !== null && (
                        <Text size="xs" c="red.9">
                          {d.rail_rejection_reason}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{d.payout_usable ? "Yes" : "No"}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
