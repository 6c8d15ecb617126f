// Settings, Limits: the environment's payout limits per currency (per payout, per day) with today's usage, the
// admins' editor (amounts typed in the currency's units, sent in minor units), and the control changes waiting for
// a second admin (approve: another admin than the proposer; discard: any admin). Raising or removing a limit while
// maker-checker is on is not applied: the API answers a pending change, shown here as waiting.
import { Alert, Badge, Button, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useEffect, useState } from "react";
import { useDecideControlChange } from "../../hooks/api/control-changes/mutations";
import { usePendingControlChanges } from "../../hooks/api/control-changes/queries";
import { useReplacePayoutLimits } from "../../hooks/api/payout-limits/mutations";
import { usePayoutLimits } from "../../hooks/api/payout-limits/queries";
import { isControlChange } from "../../hooks/api/payout-limits/types";
import { formatMoney, minorToDecimal, parseMoneyInput } from "../../lib/money";
import { useSignedIn } from "../../lib/session";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";

interface Draft {
  key: number;
  currency: string;
  perPayout: string;
  daily: string;
}

let drafts = 0;
const draft = (currency = "", perPayout = "", daily = ""): Draft => ({ key: ++drafts, currency, perPayout, daily });

export function PayoutLimitsSettings() {
  const { membership } = useSignedIn();
  const admin = membership.role === "business_admin";
  return (
    <Stack gap="xl">
      <LimitsSection admin={admin} />
      <PendingChangesSection admin={admin} />
    </Stack>
  );
}

function LimitsSection({ admin }: { admin: boolean }) {
  const limits = usePayoutLimits();
  const replace = useReplacePayoutLimits();
  const [rows, setRows] = useState<Draft[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (limits.data === undefined) return;
    setRows(
      limits.data.limits
        .filter((l) => l.per_payout_max_minor !== null || l.daily_max_minor !== null)
        .map((l) =>
          draft(
            l.currency,
            l.per_payout_max_minor === null ? "" : minorToDecimal(l.per_payout_max_minor, l.currency),
            l.daily_max_minor === null ? "" : minorToDecimal(l.daily_max_minor, l.currency),
          ),
        ),
    );
  }, [limits.data]);

  if (limits.isPending) return <Text c="dimmed">Loading the payout limits…</Text>;
  if (limits.isError) return <ErrorAlert error={limits.error} />;

  const save = (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const body = [];
    for (const row of rows) {
      const currency = row.currency.trim().toUpperCase();
      const amount = (text: string) =>
        text.trim() === "" ? { ok: true as const, amountMinor: null } : parseMoneyInput(text, currency);
      const perPayout = amount(row.perPayout);
      const daily = amount(row.daily);
      if (!perPayout.ok) return setProblem(`${currency} per payout: ${perPayout.message}`);
      if (!daily.ok) return setProblem(`${currency} per day: ${daily.message}`);
      body.push({ currency, per_payout_max_minor: perPayout.amountMinor, daily_max_minor: daily.amountMinor });
    }
    replace.mutate({ limits: body });
  };
  const update = (key: number, field: "currency" | "perPayout" | "daily", value: string) =>
    setRows((current) => current.map((r) => (r.key === key ? { ...r, [field]: value } : r)));
  const waiting = replace.isSuccess && isControlChange(replace.data);
  const saved = replace.isSuccess && !waiting;
  const money = (minor: number | null, currency: string) => (minor === null ? "No limit" : formatMoney(minor, currency));

  return (
    <Stack>
      <Title order={2}>Payout limits</Title>
      <Text size="sm">
        A payout above its currency's per-payout limit is refused when it is created; approvals (by a person or the approval
        policy) stop once the day's approvals reach the daily limit. Days are counted in {limits.data.time_zone} (today:{" "}
        {limits.data.today}). Last changed: {limits.data.updated_at === null ? "never" : <Time value={limits.data.updated_at} />}.
      </Text>
      {limits.data.limits.length === 0 ? (
        <Text c="dimmed" data-testid="no-limits">
          No limits: any amount may be paid and approved.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Payout limits" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Currency</Table.Th>
                <Table.Th>Per payout</Table.Th>
                <Table.Th>Per day</Table.Th>
                <Table.Th>Approved today</Table.Th>
                <Table.Th>Left today</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {limits.data.limits.map((l) => (
                <Table.Tr key={l.currency}>
                  <Table.Td>{l.currency}</Table.Td>
                  <Table.Td>{money(l.per_payout_max_minor, l.currency)}</Table.Td>
                  <Table.Td>{money(l.daily_max_minor, l.currency)}</Table.Td>
                  <Table.Td>{formatMoney(l.used_today_minor, l.currency)}</Table.Td>
                  <Table.Td>{l.remaining_today_minor === null ? "—" : formatMoney(l.remaining_today_minor, l.currency)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {admin ? (
        <form onSubmit={save} aria-label="Change payout limits">
          <Stack>
            {rows.map((row) => (
              <Group key={row.key} align="flex-end" wrap="wrap">
                <TextInput
                  label="Currency"
                  w={100}
                  value={row.currency}
                  onChange={(e) => update(row.key, "currency", e.currentTarget.value)}
                />
                <TextInput
                  label={`Per payout${row.currency ? ` (${row.currency.toUpperCase()})` : ""}`}
                  description="Empty: no limit"
                  inputMode="decimal"
                  value={row.perPayout}
                  onChange={(e) => update(row.key, "perPayout", e.currentTarget.value)}
                />
                <TextInput
                  label={`Per day${row.currency ? ` (${row.currency.toUpperCase()})` : ""}`}
                  description="Empty: no limit"
                  inputMode="decimal"
                  value={row.daily}
                  onChange={(e) => update(row.key, "daily", e.currentTarget.value)}
                />
                <Button variant="subtle" color="red" onClick={() => setRows((c) => c.filter((r) => r.key !== row.key))}>
                  Remove {row.currency.toUpperCase() || "row"}
                </Button>
              </Group>
            ))}
            {problem !== null && (
              <Text role="alert" c="red.9" size="sm">
                {problem}
              </Text>
            )}
            <ErrorAlert error={replace.error} title="The limits were not saved" />
            {saved && (
              <Text role="status" c="teal.9">
                Payout limits saved.
              </Text>
            )}
            {waiting && (
              <Alert color="yellow" title="Waiting for a second admin" data-testid="waiting-for-second-admin">
                Maker-checker is on, so raising or removing a limit applies only once another admin approves it (below).
              </Alert>
            )}
            <Group>
              <Button variant="default" onClick={() => setRows((c) => [...c, draft()])}>
                Add a currency
              </Button>
              <Button type="submit" loading={replace.isPending}>
                Save limits
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Text size="sm" c="dimmed">
          Only admins change the payout limits.
        </Text>
      )}
    </Stack>
  );
}

const KIND_LABELS: Readonly<Record<string, string>> = {
  payout_limits: "Payout limits",
  approval_policy: "Approval policy",
  funding_account: "Funding account",
  destination_policy: "Destination policy",
};

function PendingChangesSection({ admin }: { admin: boolean }) {
  const changes = usePendingControlChanges();
  const decide = useDecideControlChange();
  if (changes.isPending) return <Text c="dimmed">Loading the pending control changes…</Text>;
  if (changes.isError) return <ErrorAlert error={changes.error} />;
  const pending = changes.data.control_changes;
  return (
    <Stack>
      <Title order={2}>Control changes waiting for a second admin</Title>
      <Text size="sm">
        With maker-checker on, a change that weakens a control (raising a limit, turning maker-checker off, loosening the approval
        rules, switching a funding account's enforcement off) applies only once an admin other than the one who proposed it
        approves it.
      </Text>
      {pending.length === 0 ? (
        <Text c="dimmed" data-testid="no-pending-changes">
          Nothing is waiting.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Pending control changes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Control</Table.Th>
                <Table.Th>Change</Table.Th>
                <Table.Th>Proposed</Table.Th>
                {admin && <Table.Th>Decide</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pending.map((change) => (
                <Table.Tr key={change.id}>
                  <Table.Td>
                    <Badge color="gray.7" variant="filled" autoContrast>
                      {KIND_LABELS[change.kind] ?? change.kind}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{change.summary}</Table.Td>
                  <Table.Td>
                    <Time value={change.created_at} />
                  </Table.Td>
                  {admin && (
                    <Table.Td>
                      <Group gap="xs">
                        <Button
                          size="xs"
                          loading={decide.isPending && decide.variables?.id === change.id && decide.variables.verb === "approve"}
                          onClick={() => decide.mutate({ id: change.id, verb: "approve" })}
                        >
                          Approve
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          loading={decide.isPending && decide.variables?.id === change.id && decide.variables.verb === "discard"}
                          onClick={() => decide.mutate({ id: change.id, verb: "discard" })}
                        >
                          Discard
                        </Button>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ErrorAlert error={decide.error} title="The change was not decided" />
    </Stack>
  );
}
