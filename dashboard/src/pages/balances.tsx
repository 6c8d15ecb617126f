// Balances: each funding account's posted, held, available and waiting amounts and the transfers behind them, the
// top-ups waiting for a second person, and (admins) recording a top-up and the enforcement settings.
import { Stack, Text, Title } from "@mantine/core";
import { useMemo } from "react";
import { FundingAccountCard } from "../components/balances/FundingAccountCard";
import { TopUpsList } from "../components/balances/TopUpsList";
import { ErrorAlert } from "../components/ErrorAlert";
import { useFundingAccounts } from "../hooks/api/funding/queries";
import { useSignedIn } from "../lib/session";

export function BalancesPage() {
  const session = useSignedIn();
  const accounts = useFundingAccounts();
  const admin = session.membership.role === "business_admin";
  const list = accounts.data?.funding_accounts ?? [];
  const names = useMemo(() => new Map(list.map((a) => [a.id, a.name])), [list]);
  return (
    <Stack>
      <Title order={1}>Balances</Title>
      <Text size="sm" c="dimmed">
        Posted is what the bank has booked, held is reserved for approved payouts, available is posted minus held; waiting payouts
        are approved but not sent until the account covers them (only where enforcement is on).
      </Text>
      <ErrorAlert error={accounts.error} title="The balances could not be read" />
      {accounts.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : list.length === 0 && accounts.error === null ? (
        <Text c="dimmed" data-testid="no-funding-accounts">
          No funding account yet: one is opened with the first payout of a currency, or when a bank rail is configured.
        </Text>
      ) : (
        list.map((account) => <FundingAccountCard key={account.id} account={account} admin={admin} />)
      )}
      <TopUpsList accountNames={names} />
    </Stack>
  );
}
