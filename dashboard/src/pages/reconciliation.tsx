// Reconciliation: the bank's statements against what the service sent. The review queue (lines the rules would
// not decide alone, beside their candidates), the money nobody expected (credits the bank booked, debits held in
// suspense), balances that differ from the bank's, every statement received, and the lines already matched.
// The tab is in the address, so a link opens the same view. People who only read see everything, act on nothing.
import { Badge, Button, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import { useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { ErrorAlert } from "../components/ErrorAlert";
import { LinesTable } from "../components/reconciliation/LinesTable";
import { Mismatches } from "../components/reconciliation/Mismatches";
import { ReviewQueue } from "../components/reconciliation/ReviewQueue";
import { StatementsList } from "../components/reconciliation/StatementsList";
import { UploadStatementDialog } from "../components/reconciliation/UploadStatementDialog";
import { useFundingAccounts } from "../hooks/api/funding/queries";
import { useMismatchedStatements } from "../hooks/api/reconciliation/queries";
import { canDecide } from "../lib/payouts";
import { useSignedIn } from "../lib/session";

const TABS = ["review", "unmatched", "mismatches", "statements", "matched", "ignored"] as const;
type Tab = (typeof TABS)[number];

export function ReconciliationPage() {
  const session = useSignedIn();
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((t) => t === params.get("tab")) ?? "review";
  const [uploading, setUploading] = useState(false);
  const accounts = useFundingAccounts();
  const mismatches = useMismatchedStatements();
  const decider = canDecide(session.membership.role);
  const admin = session.membership.role === "business_admin";
  const names = useMemo(() => new Map((accounts.data?.funding_accounts ?? []).map((a) => [a.id, a.name])), [accounts.data]);
  const accountName = (id: string) => names.get(id) ?? `Account ${id.slice(-8)}`;
  const mismatchCount = mismatches.data?.statements.length ?? 0;

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>Reconciliation</Title>
        {decider && <Button onClick={() => setUploading(true)}>Upload statement</Button>}
      </Group>
      <Text size="sm">
        Every line of your bank's statements is matched to the payouts and top-ups the service knows, or waits here for a person.
        Statements arrive from each bank rail's inbound folder or by upload.
        {!decider && " Your role reads only: an approver or admin matches and explains lines."}
      </Text>
      <ErrorAlert error={accounts.error} title="The funding accounts could not be read" />
      <Tabs
        value={tab}
        onChange={(value) => setParams(value === null || value === "review" ? {} : { tab: value })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="review">To review</Tabs.Tab>
          <Tabs.Tab value="unmatched">Unexpected money</Tabs.Tab>
          <Tabs.Tab
            value="mismatches"
            rightSection={
              mismatchCount > 0 ? (
                <Badge size="sm" color="red.8" aria-label={`${mismatchCount} differ`}>
                  {mismatchCount}
                </Badge>
              ) : undefined
            }
          >
            Balance differences
          </Tabs.Tab>
          <Tabs.Tab value="statements">Statements</Tabs.Tab>
          <Tabs.Tab value="matched">Matched</Tabs.Tab>
          <Tabs.Tab value="ignored">Ignored</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="review" pt="md">
          <ReviewQueue decider={decider} accountName={accountName} />
        </Tabs.Panel>
        <Tabs.Panel value="unmatched" pt="md">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              Money the bank moved that the service did not expect. Money in was credited to the funding account; money out is
              held in suspense and lowers what is available until someone matches or explains it.
            </Text>
            <LinesTable
              filters={{ status: "unmatched", fundingAccountId: null, statementId: null }}
              decider={decider}
              accountName={accountName}
              empty="No unexpected money: every booked line is matched or explained."
              caption="Money nobody expected"
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="mismatches" pt="md">
          <Mismatches decider={decider} admin={admin} accountName={accountName} />
        </Tabs.Panel>
        <Tabs.Panel value="statements" pt="md">
          <StatementsList accountName={accountName} />
        </Tabs.Panel>
        <Tabs.Panel value="matched" pt="md">
          <LinesTable
            filters={{ status: "matched", fundingAccountId: null, statementId: null }}
            decider={decider}
            accountName={accountName}
            empty="No line is matched yet."
            caption="Matched lines"
          />
        </Tabs.Panel>
        <Tabs.Panel value="ignored" pt="md">
          <LinesTable
            filters={{ status: "ignored", fundingAccountId: null, statementId: null }}
            decider={decider}
            accountName={accountName}
            empty="No line was ignored."
            caption="Ignored lines"
          />
        </Tabs.Panel>
      </Tabs>
      {uploading && <UploadStatementDialog onClose={() => setUploading(false)} />}
    </Stack>
  );
}
