// The approval inbox: pending payouts split by who can decide them, each naming its payee and masked destination
// first, selected one by one, a page at a time or all at once, then approved or rejected with a note.
import { Alert, Button, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useMemo, useState } from "react";
import { approvalColumns, referenceOf } from "../components/approvals/approval-columns";
import { DataList } from "../components/DataList";
import { DecisionDialog } from "../components/DecisionDialog";
import { BankDetailApprovals } from "../components/destinations/BankDetailApprovals";
import { useApprovalPolicy } from "../hooks/api/approval-policy/queries";
import { usePendingApprovals } from "../hooks/api/approvals/queries";
import type { Outcome } from "../hooks/api/approvals/types";
import { formatMoney } from "../lib/money";
import { canDecide, makerCheckerBlocks, type Payout } from "../lib/payouts";
import { useSignedIn } from "../lib/session";

type Tab = "mine" | "others" | "all";

export function ApprovalsPage() {
  const session = useSignedIn();
  const [tab, setTab] = useState<Tab>("mine");
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<{ outcome: Outcome; payouts: Payout[] } | null>(null);
  const policy = useApprovalPolicy();
  const pending = usePendingApprovals();
  const phone = useMediaQuery("(max-width: 40em)") ?? false;

  const me = { membershipId: session.membership.id, userId: session.user.id };
  const decider = canDecide(session.membership.role);
  const makerChecker = policy.data?.maker_checker ?? false;
  const all = useMemo(() => pending.data?.pages.flatMap((p) => p.payouts) ?? [], [pending.data]);
  const blocked = (payout: Payout) => !decider || makerCheckerBlocks(payout, me, makerChecker);
  const rows = tab === "all" ? all : all.filter((p) => (tab === "mine" ? !blocked(p) : blocked(p)));
  const lastPage = pending.data?.pages.at(-1)?.payouts ?? [];
  const selectable = rows.filter((p) => !blocked(p));
  const chosen = all.filter((p) => selected.has(p.payout_id));
  const ruleText =
    policy.data === undefined
      ? ""
      : policy.data.rules.length === 0
        ? "No approval policy rules: every payout waits for a person"
        : `None of the ${policy.data.rules.length} policy rules matched`;

  const toggle = (ids: readonly string[], on: boolean) => {
    const next = new Set(selected);
    for (const id of ids)
      if (on) next.add(id);
      else next.delete(id);
    setSelected(next);
  };
  const selectAll = async () => {
    // Every pending payout, not only the pages loaded so far.
    let data = pending.data;
    let more = pending.hasNextPage;
    while (more) {
      const result = await pending.fetchNextPage();
      data = result.data;
      more = result.hasNextPage;
    }
    const loaded = data?.pages.flatMap((p) => p.payouts) ?? [];
    toggle(
      loaded.filter((p) => !blocked(p)).map((p) => p.payout_id),
      true,
    );
  };
  const pageIds = selectable.filter((p) => lastPage.some((q) => q.payout_id === p.payout_id)).map((p) => p.payout_id);
  const allOnPageSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const verdict = (payout: Payout) => {
    const isBlocked = blocked(payout);
    return {
      blocked: isBlocked && decider,
      text: !decider
        ? "Your role cannot decide"
        : isBlocked
          ? "You created it: someone else must decide"
          : makerChecker
            ? "You may decide"
            : "Off",
    };
  };
  const columns = approvalColumns({ ruleText, verdict }, phone);

  return (
    <Stack>
      <Title order={1}>Approvals</Title>
      {!decider && (
        <Alert color="blue">
          Your role ({session.membership.role.replace("business_", "")}) can read payouts but not decide them.
        </Alert>
      )}
      {makerChecker && (
        <Text size="sm" c="dimmed">
          Maker-checker is on: nobody can approve a payout they created.
        </Text>
      )}
      <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? "mine")}>
        <Tabs.List>
          <Tabs.Tab value="mine">Awaiting my approval</Tabs.Tab>
          <Tabs.Tab value="others">Awaiting others</Tabs.Tab>
          <Tabs.Tab value="all">All pending</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Group gap="sm">
        <Button size="xs" variant="default" onClick={() => toggle(pageIds, !allOnPageSelected)} disabled={pageIds.length === 0}>
          {allOnPageSelected ? "Clear this page" : "Select this page"}
        </Button>
        <Button size="xs" variant="default" onClick={() => void selectAll()} disabled={tab === "others" || !decider}>
          Select all pending
        </Button>
        <Text size="sm" role="status">
          {chosen.length} selected
        </Text>
        <Button
          size="xs"
          color="teal.9"
          disabled={chosen.length === 0}
          onClick={() => setDialog({ outcome: "approve", payouts: chosen })}
        >
          Approve selected
        </Button>
        <Button
          size="xs"
          color="red"
          disabled={chosen.length === 0}
          onClick={() => setDialog({ outcome: "reject", payouts: chosen })}
        >
          Reject selected
        </Button>
      </Group>
      <DataList
        rows={rows}
        rowKey={(payout) => payout.payout_id}
        columns={columns}
        query={pending}
        loadingText="Loading pending payouts…"
        error={pending.error ?? policy.error}
        errorTitle="Could not load the pending payouts"
        empty={
          tab === "mine"
            ? "Nothing awaits your approval."
            : tab === "others"
              ? "Nothing awaits someone else."
              : "No payout is pending."
        }
        emptyTestId="empty"
        rowTestId="approval-row"
        minWidth={phone ? 300 : 960}
        highlightOnHover
        selection={{
          isSelected: (payout) => selected.has(payout.payout_id),
          isDisabled: blocked,
          onToggle: (payout, on) => toggle([payout.payout_id], on),
          rowLabel: (payout) =>
            `Select ${payout.payee.display_name}, ${formatMoney(payout.amount_minor, payout.currency)}, ${referenceOf(payout)}`,
          all: {
            label: "Select this page",
            checked: allOnPageSelected,
            disabled: pageIds.length === 0,
            onChange: (on) => toggle(pageIds, on),
          },
        }}
      />
      {pending.hasNextPage && (
        <Button variant="default" onClick={() => void pending.fetchNextPage()} loading={pending.isFetchingNextPage}>
          Load more
        </Button>
      )}
      {dialog !== null && (
        <DecisionDialog
          outcome={dialog.outcome}
          payouts={dialog.payouts}
          onClose={() => {
            setDialog(null);
            setSelected(new Set());
          }}
        />
      )}
      <BankDetailApprovals />
    </Stack>
  );
}
