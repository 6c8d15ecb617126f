// The uploads made so far as batches (grouped from the most recent payouts by upload id), each with its payouts
// by status and total, whose pending payouts are approved or rejected together.
import { Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { useMemo, useState } from "react";
import type { Outcome } from "../../hooks/api/approvals/types";
import { useUploadBatches } from "../../hooks/api/uploads/queries";
import type { Batch } from "../../hooks/api/uploads/types";
import { canDecide, type Payout, type PayoutStatus } from "../../lib/payouts";
import { useSignedIn } from "../../lib/session";
import { type DataColumn, DataList } from "../DataList";
import { DecisionDialog } from "../DecisionDialog";
import { Money } from "../Money";
import { StatusBadge } from "../StatusBadge";
import { Time } from "../Time";

/** A batch's two buttons: its pending payouts approved or rejected together. */
const DECISIONS: readonly { outcome: Outcome; verb: string; color: string }[] = [
  { outcome: "approve", verb: "Approve", color: "teal.9" },
  { outcome: "reject", verb: "Reject", color: "red" },
];

export function UploadBatches() {
  const session = useSignedIn();
  const batches = useUploadBatches();
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
