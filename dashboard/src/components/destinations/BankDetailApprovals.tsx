// Bank details waiting for a second person (destination policy `require_approval`), beside the payout approvals:
// the payee's account holder, the masked account, who added it and when, and approve/reject. Maker-checker is
// shown: details this person added from the dashboard cannot be decided by them (the API refuses their keys too).
import { Badge, Button, Group, Stack, Table, Text, Title } from "@mantine/core";
import type { Schemas } from "../../api/client";
import { useDecideBankAccount } from "../../hooks/api/destination-approvals/mutations";
import { useBankAccountApprovals } from "../../hooks/api/destination-approvals/queries";
import { canDecide } from "../../lib/payouts";
import { useSignedIn } from "../../lib/session";
import { ErrorAlert } from "../ErrorAlert";
import { MutationError } from "../MutationError";
import { Time } from "../Time";

type Destination = Schemas["Destination"];

function addedByText(account: Destination, myMembershipId: string): string {
  const by = account.added_by;
  if (by.kind === "collection_link") return "The payee, through a collection link";
  if (by.kind === "session") return by.id === myMembershipId ? "You, in the dashboard" : "A team member, in the dashboard";
  if (by.kind === "api_key") return "An API key";
  return "Unknown";
}

export function BankDetailApprovals() {
  const session = useSignedIn();
  const pending = useBankAccountApprovals();
  const decide = useDecideBankAccount();
  const decider = canDecide(session.membership.role);
  const rows = pending.data?.bank_accounts ?? [];
  return (
    <Stack gap="xs" data-testid="bank-detail-approvals">
      <Title order={2} size="h3">
        Bank details awaiting approval
      </Title>
      <Text size="sm" c="dimmed">
        New and changed bank details cannot be paid until a person other than the one who added them approves them.
      </Text>
      <ErrorAlert error={pending.error} title="Could not load the bank details awaiting approval" />
      <MutationError mutation={decide} title="The decision was refused" />
      {pending.isSuccess && rows.length === 0 && <Text size="sm">No bank details await approval.</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Account holder</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th>Added by</Table.Th>
                <Table.Th>Added or changed</Table.Th>
                <Table.Th>Decision</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((account) => {
                const own = account.added_by.kind === "session" && account.added_by.id === session.membership.id;
                const args = { beneficiaryId: account.beneficiary_id, accountId: account.id };
                return (
                  <Table.Tr key={account.id} data-testid="bank-detail-row">
                    <Table.Td>{account.account_holder_name}</Table.Td>
                    <Table.Td>
                      {account.country} {account.currency} ••{account.last4} <Badge variant="light">Pending approval</Badge>
                    </Table.Td>
                    <Table.Td>{addedByText(account, session.membership.id)}</Table.Td>
                    <Table.Td>
                      <Time value={account.details_changed_at} />
                    </Table.Td>
                    <Table.Td>
                      {!decider ? (
                        <Text size="sm">Your role cannot decide</Text>
                      ) : own ? (
                        <Text size="sm">You added it: someone else must decide</Text>
                      ) : (
                        <Group gap="xs">
                          <Button
                            size="xs"
                            color="teal.9"
                            loading={decide.isPending}
                            onClick={() => decide.mutate({ outcome: "approve", ...args })}
                            aria-label={`Approve the account of ${account.account_holder_name} ending ${account.last4}`}
                          >
                            Approve
                          </Button>
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            loading={decide.isPending}
                            onClick={() => decide.mutate({ outcome: "reject", ...args })}
                            aria-label={`Reject the account of ${account.account_holder_name} ending ${account.last4}`}
                          >
                            Reject
                          </Button>
                        </Group>
                      )}
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
