// Approve or reject one or more payouts with a note: confirmed in a dialog, then sent one by one (step-up
// asked once when the API wants it; hooks/api/approvals/mutations.ts), with the result of each payout shown.
import { Button, Group, Modal, Stack, Table, Text, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { useDecidePayouts } from "../hooks/api/approvals/mutations";
import type { DecisionResult, Outcome } from "../hooks/api/approvals/types";
import { type Payout, STATUS_LABELS } from "../lib/payouts";
import { Money } from "./Money";

export type { Outcome };

export function DecisionDialog(props: { outcome: Outcome; payouts: readonly Payout[]; onClose: () => void }) {
  const decide = useDecidePayouts();
  const form = useForm({ initialValues: { note: "" } });
  // The results so far while the batch runs; the mutation's answer once it is done.
  const [progress, setProgress] = useState<readonly DecisionResult[] | null>(null);
  const busy = decide.isPending;
  const results = decide.data ?? progress;
  const verb = props.outcome === "approve" ? "Approve" : "Reject";
  const count = props.payouts.length;

  const submit = form.onSubmit(({ note }) =>
    decide.mutate({ outcome: props.outcome, payouts: props.payouts, note, onProgress: setProgress }),
  );

  return (
    <Modal opened onClose={props.onClose} title={`${verb} ${count} payout${count === 1 ? "" : "s"}`} size="lg" centered>
      {results === null || busy ? (
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">
              {verb} {count === 1 ? "this payout" : `these ${count} payouts`}?{" "}
              {props.outcome === "reject"
                ? "A rejected payout cannot be sent later."
                : "Approved payouts are sent to the rail right away."}
            </Text>
            <Textarea
              label="Note"
              description={props.outcome === "reject" ? "Shown on the payout and in its webhook event" : "Optional"}
              {...form.getInputProps("note")}
              maxLength={1000}
              autosize
              minRows={2}
              data-autofocus
            />
            {busy && results !== null && (
              <Text size="sm" role="status">
                {results.length} of {count} done…
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={props.onClose} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" color={props.outcome === "approve" ? "teal.9" : "red"} loading={busy}>
                {verb}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Stack>
          <Text size="sm" role="status">
            {results.filter((r) => r.ok).length} of {count} {props.outcome === "approve" ? "approved" : "rejected"}.
          </Text>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Payout</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Result</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.payouts.map((payout) => {
                const result = results.find((r) => r.payoutId === payout.payout_id);
                return (
                  <Table.Tr key={payout.payout_id} data-testid="decision-result">
                    <Table.Td>{payout.external_ref ?? payout.payout_id.slice(0, 8)}</Table.Td>
                    <Table.Td>
                      <Money minor={payout.amount_minor} currency={payout.currency} />
                    </Table.Td>
                    <Table.Td c={result === undefined ? "dimmed" : result.ok ? "teal.9" : "red.9"}>
                      {result === undefined ? "Not sent" : result.ok ? STATUS_LABELS[result.status] : result.refusal}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          <Group justify="flex-end">
            <Button onClick={props.onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
