// The uploads made so far as batches (grouped from the most recent payouts by upload id), each with its payouts
// by status and total, whose pending payouts are approved or rejected together.
import { Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { api, call } from "../../api/client";
import { canDecide, type Payout, type PayoutStatus } from "../../lib/payouts";
import { useSignedIn } from "../../lib/session";
import { type DataColumn, DataList } from "../DataList";
import { DecisionDialog, type Outcome } from "../DecisionDialog";
import { Money } from "../Money";
import { StatusBadge } from "../StatusBadge";
import { Time } from "../Time";

/** A batch's two buttons: its pending payouts approved or rejected together. */
const DECISIONS: readonly { outcome: Outcome; verb: string; color: string }[] = [
  { outcome: "approve", verb: "Approve", color: "teal.9" },
  { outcome: "reject", verb: "Reject", color: "red" },
];

/** Up to this many recent payouts are read to group the uploads (5 pages of 200). */
const SCAN_PAGES = 5;

interface Batch {
  readonly uploadId: string;
  readonly firstAt: string;
  readonly payouts: Payout[];
}

/** The uploads among the most recent payouts, newest first, with their payouts. */
function useBatches() {
  const { environment } = useSignedIn();
  return useQuery({
    queryKey: [environment, "payouts", "batches"],
    queryFn: async () => {
      const payouts: Payout[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < SCAN_PAGES; page += 1) {
        const result: { payouts: Payout[]; next_cursor: string | null } = await call(
          api.GET("/v1/payouts", { params: { query: { limit: 200, ...(cursor === null ? {} : { cursor }) } } }),
        );
        payouts.push(...result.payouts);
        cursor = result.next_cursor;
        if (cursor === null) break;
      }
      const batches = new Map<string, Batch>();
      for (const payout of payouts) {
        if (payout.upload_id === null) continue;
        const batch = batches.get(payout.upload_id) ?? { uploadId: payout.upload_id, firstAt: payout.created_at, payouts: [] };
        batch.payouts.push(payout);
        if (payout.created_at < batch.firstAt) batches.set(payout.upload_id, { ...batch, firstAt: payout.created_at });
        else batches.set(payout.upload_id, batch);
      }
      return { batches: [...batches.values()].sort((a, b) => b.firstAt.localeCompare(a.firstAt)), partial: cursor !== null };
    },
  });
}

export function UploadBatches() {
  const session = useSignedIn();
  const batches = useBatches();
  const [dialog, setDialog] = useState<{ outcome: Outcome; payouts: Payout[] } | null>(null);
  const decider = canDecide(session.membership.role);
  const list = useMemo(() => batches.data?.batches ?? [], [batches.data]);
  const columns: readonly DataColumn<Batch>[] = [
    { header: "Uploaded", cell: (batch) => <Time value={batch.firstAt} /> },
    {
      header: "Upload id",
      cell: (batch) => `${batch.uploadId.slice(0, 12)}…`,
      link: (batch) => `/payouts?upload_id=${encodeURIComponent(batch.uploadId)}`,
    },
    {
      header: "Payouts by status",
      cell: (batch) => {
        const counts = new Map<PayoutStatus, number>();
        for (const p of batch.payouts) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
        return (
          <Group gap={4}>
            {[...counts.entries()].map(([status, count]) => (
              <Group key={status} gap={2} wrap="nowrap">
                <StatusBadge status={status} />
                <Badge variant="outline" color="dark">
                  {count}
                </Badge>
              </Group>
            ))}
          </Group>
        );
      },
    },
    {
      header: "Total",
      cell: (batch) => {
        const totals = new Map<string, number>();
        for (const p of batch.payouts) totals.set(p.currency, (totals.get(p.currency) ?? 0) + p.amount_minor);
        return [...totals.entries()].map(([currency, minor]) => (
          <div key={currency}>
            <Money minor={minor} currency={currency} />
          </div>
        ));
      },
    },
    {
      header: "Pending payouts",
      cell: (batch) => {
        const pending = batch.payouts.filter((p) => p.status === "pending_approval");
        const short = batch.uploadId.slice(0, 12);
        return pending.length === 0 ? (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ) : (
          <Group gap="xs" wrap="nowrap">
            {DECISIONS.map(({ outcome, verb, color }) => (
              <Button
                key={outcome}
                size="xs"
                color={color}
                disabled={!decider}
                onClick={() => setDialog({ outcome, payouts: pending })}
                aria-label={`${verb} ${pending.length} pending payouts of upload ${short}`}
              >
                {verb} {pending.length}
              </Button>
            ))}
          </Group>
        );
      },
    },
  ];

  return (
    <Stack mt="lg">
      <Title order={2}>Uploads</Title>
      <DataList
        rows={list}
        rowKey={(batch) => batch.uploadId}
        columns={columns}
        query={batches}
        loadingText="Loading uploads…"
        errorTitle="Could not load the uploads"
        empty="No upload yet."
        emptyTestId="batches-empty"
        rowTestId="batch-row"
        minWidth={720}
      />
      {batches.data?.partial === true && (
        <Text size="xs" c="dimmed">
          Uploads among the 1000 most recent payouts; older ones are in Payouts, filtered by upload id.
        </Text>
      )}
      {dialog !== null && <DecisionDialog outcome={dialog.outcome} payouts={dialog.payouts} onClose={() => setDialog(null)} />}
    </Stack>
  );
}
