// The environment's top-ups, newest first, filtered by status (pending by default) and funding account, with
// Approve / Reject for approvers and admins. Whoever recorded a top-up cannot approve it (compared by person:
// membership or user, as the API does), so the row says so instead of offering the button.
import { Badge, Button, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useTopUps } from "../../hooks/api/top-ups/queries";
import type { TopUp, TopUpStatus } from "../../hooks/api/top-ups/types";
import { canDecide } from "../../lib/payouts";
import { useSignedIn } from "../../lib/session";
import { useCursorPages } from "../../lib/use-cursor-pages";
import { type DataColumn, DataList } from "../DataList";
import { Money } from "../Money";
import { Time } from "../Time";
import { TopUpDecisionDialog } from "./TopUpDecisionDialog";

const STATUS_LABELS: Record<TopUpStatus, string> = {
  pending_approval: "Pending approval",
  approved: "Approved",
  rejected: "Rejected",
};
const STATUS_COLORS: Record<TopUpStatus, string> = { pending_approval: "blue.8", approved: "teal.9", rejected: "red.9" };

export function TopUpsList(props: { accountNames: ReadonlyMap<string, string> }) {
  const session = useSignedIn();
  const [status, setStatus] = useState<TopUpStatus | "all">("pending_approval");
  const filters = { status: status === "all" ? null : status, fundingAccountId: null };
  const pages = useCursorPages(status);
  const topUps = useTopUps(filters, pages.cursor);
  const [dialog, setDialog] = useState<{ outcome: "approve" | "reject"; topUp: TopUp } | null>(null);
  const decider = canDecide(session.membership.role);
  const isMine = (topUp: TopUp) =>
    topUp.created_by.membership_id === session.membership.id || topUp.created_by.user_id === session.user.id;

  const columns: readonly DataColumn<TopUp>[] = [
    { header: "Recorded", cell: (t) => <Time value={t.created_at} /> },
    { header: "Account", cell: (t) => props.accountNames.get(t.funding_account_id) ?? t.funding_account_id.slice(0, 8) },
    { header: "Amount", align: "right", cell: (t) => <Money minor={t.amount_minor} currency={t.currency} /> },
    { header: "Reference", cell: (t) => t.reference, breakAll: true },
    {
      header: "Status",
      cell: (t) => (
        <Stack gap={2}>
          <Badge color={STATUS_COLORS[t.status]} variant="filled" autoContrast>
            {STATUS_LABELS[t.status]}
          </Badge>
          {t.reason !== null && <Text size="xs">{t.reason}</Text>}
        </Stack>
      ),
    },
    {
      header: "Decision",
      hiddenHeader: true,
      cell: (t) =>
        t.status !== "pending_approval" ? null : !decider ? (
          <Text size="sm">Your role cannot decide</Text>
        ) : (
          <Group gap="xs" wrap="nowrap">
            {isMine(t) ? (
              <Text size="sm" c="red.9">
                You recorded it: someone else must approve
              </Text>
            ) : (
              <Button size="xs" color="teal.9" onClick={() => setDialog({ outcome: "approve", topUp: t })}>
                Approve
              </Button>
            )}
            <Button size="xs" variant="default" onClick={() => setDialog({ outcome: "reject", topUp: t })}>
              Reject
            </Button>
          </Group>
        ),
    },
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Top-ups</Title>
        <SegmentedControl
          aria-label="Top-up status"
          value={status}
          onChange={(value) => setStatus(value as TopUpStatus | "all")}
          data={[
            { value: "pending_approval", label: "Pending" },
            { value: "approved", label: "Approved" },
            { value: "rejected", label: "Rejected" },
            { value: "all", label: "All" },
          ]}
        />
      </Group>
      <DataList
        rows={topUps.data?.top_ups ?? []}
        rowKey={(t) => t.id}
        columns={columns}
        query={topUps}
        empty={status === "pending_approval" ? "No top-up waits for approval." : "No top-ups."}
        rowTestId="top-up-row"
        minWidth={760}
        pager={{ pages, nextCursor: topUps.data?.next_cursor, label: "Top-up pages" }}
      />
      {dialog !== null && <TopUpDecisionDialog {...dialog} onClose={() => setDialog(null)} />}
    </Stack>
  );
}
