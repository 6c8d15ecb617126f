// One funding account: its posted, held, available and waiting amounts, why (its transfers, opened on demand),
// and what an admin does with it (record a top-up, change its settings).
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import type { FundingAccount } from "../../hooks/api/funding/types";
import { Money } from "../Money";
import { FundingSettingsDialog } from "./FundingSettingsDialog";
import { RecordTopUpDialog } from "./RecordTopUpDialog";
import { TransfersList } from "./TransfersList";

function Figure(props: { label: string; help: string; children: React.ReactNode; testId: string }) {
  return (
    <Stack gap={0} data-testid={props.testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {props.label}
      </Text>
      <Text size="lg" fw={600}>
        {props.children}
      </Text>
      <Text size="xs" c="dimmed">
        {props.help}
      </Text>
    </Stack>
  );
}

const KIND_LABELS: Record<FundingAccount["kind"], string> = {
  bank_rail: "Bank rail",
  simulator: "Simulator",
  sandbox: "Sandbox",
};

export function FundingAccountCard(props: { account: FundingAccount; admin: boolean }) {
  const { account } = props;
  const [open, setOpen] = useState<"transfers" | "top-up" | "settings" | null>(null);
  const low = account.low_balance_threshold_minor !== null && account.available_minor < account.low_balance_threshold_minor;
  const money = (minor: number) => <Money minor={minor} currency={account.currency} />;
  return (
    <Card withBorder padding="md" data-testid="funding-account" aria-label={account.name} component="section">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Stack gap={0}>
            <Title order={2} size="h3">
              {account.name}
            </Title>
            <Text size="sm" c="dimmed">
              {KIND_LABELS[account.kind]}
              {account.rail === null ? "" : ` · ${account.rail.toUpperCase()}`}
              {account.account_identifier_masked === null ? "" : ` · ${account.account_identifier_masked}`} · {account.currency}
            </Text>
          </Stack>
          <Group gap="xs">
            <Badge color={account.enforcement === "enforce" ? "teal.9" : "gray.7"} variant="filled" autoContrast>
              {account.enforcement === "enforce" ? "Enforced" : "Track only"}
            </Badge>
            {low && (
              <Badge color="red.9" variant="filled" autoContrast>
                Low balance
              </Badge>
            )}
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Figure label="Posted" help="Booked on the account" testId="posted">
            {money(account.posted_minor)}
          </Figure>
          <Figure label="Held" help="Reserved for approved payouts" testId="held">
            {money(account.pending_minor)}
          </Figure>
          <Figure label="Available" help="Posted minus held" testId="available">
            {money(account.available_minor)}
          </Figure>
          <Figure
            label="Waiting"
            help={`${account.awaiting_funds.count} payout${account.awaiting_funds.count === 1 ? "" : "s"} waiting for funds`}
            testId="waiting"
          >
            {money(account.awaiting_funds.amount_minor)}
          </Figure>
        </SimpleGrid>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            aria-expanded={open === "transfers"}
            onClick={() => setOpen(open === "transfers" ? null : "transfers")}
          >
            {open === "transfers" ? "Hide transfers" : "Show transfers"}
          </Button>
          {props.admin && (
            <>
              <Button size="xs" onClick={() => setOpen("top-up")}>
                Record top-up
              </Button>
              <Button size="xs" variant="default" onClick={() => setOpen("settings")}>
                Settings
              </Button>
            </>
          )}
        </Group>
        {open === "transfers" && <TransfersList accountId={account.id} accountName={account.name} />}
      </Stack>
      {open === "top-up" && <RecordTopUpDialog account={account} onClose={() => setOpen(null)} />}
      {open === "settings" && <FundingSettingsDialog account={account} onClose={() => setOpen(null)} />}
    </Card>
  );
}
