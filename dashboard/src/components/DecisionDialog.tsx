// Approve or reject one or more payouts with a note: confirmed in a dialog that restates whom and where each
// payout pays, the count and the total per currency, then sent one by one (step-up asked once when the API wants
// it; hooks/api/approvals/mutations.ts), with the result of each payout shown.
import { Button, Group, Modal, ScrollArea, Stack, Table, Text, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { useDecidePayouts } from "../hooks/api/approvals/mutations";
import type { DecisionResult, Outcome } from "../hooks/api/approvals/types";
import { formatMoney } from "../lib/money";
import { type Payout, STATUS_LABELS } from "../lib/payouts";
import { Money } from "./Money";
import { PayeeCell } from "./payouts/Payee";

/** "€1,250.00" or "€1,250.00 + $20.00": the selection's total per currency, in the order they first appear. */
export function totalsText(payouts: readonly Payout[]): string {
  const totals = new Map<string, bigint>();
  for (const p of payouts) totals.set(p.currency, (totals.get(p.currency) ?? 0n) + BigInt(p.amount_minor));
  return [...totals].map(([currency, minor]) => formatMoney(minor, currency)).join(" + ");
}

/** Whom and where the chosen payouts pay, with their amounts and references: what the person confirms. */
function DecisionSummary({ payouts, verb }: { payouts: readonly Payout[]; verb: string }) {
  const payees = new Set(payouts.map((p) => p.payee.beneficiary_id)).size;
  const count = payouts.length;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600} data-testid="decision-summary">
        {verb} {count} payout{count === 1 ? "" : "s"} to {payees} payee{payees === 1 ? "" : "s"}, total {totalsText(payouts)}
      </Text>
      <ScrollArea.Autosize mah={260} type="auto">
        <Table fz="sm" verticalSpacing={4} data-testid="decision-payouts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Payee and destination</Table.Th>
              <Table.Th ta="right">Amount and reference</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {payouts.map((payout) => (
              <Table.Tr key={payout.payout_id} data-testid="decision-payout">
                <Table.Td>
                  <PayeeCell payee={payout.payee} />
                </Table.Td>
                <Table.Td ta="right">
                  <Money minor={payout.amount_minor} currency={payout.currency} />
                  <Text size="xs" c="dimmed" style={{ wordBreak: "break-all" }}>
                    {payout.external_ref ?? payout.payout_id.slice(0, 8)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}

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
            <DecisionSummary payouts={props.payouts} verb={verb} />
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
                <Table.Th>Payee and reference</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Result</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.payouts.map((payout) => {
                const result = results.find((r) => r.payoutId === payout.payout_id);
                return (
                  <Table.Tr key={payout.payout_id} data-testid="decision-result">
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {payout.payee.display_name}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ wordBreak: "break-all" }}>
                        {payout.external_ref ?? payout.payout_id.slice(0, 8)}
                      </Text>
                    </Table.Td>
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
