// Approve or reject one or more payouts with a note: confirmed in a dialog, then sent one by one (step-up
// asked once when the API wants it), with the result of each payout shown.
import { Button, Group, Modal, Stack, Table, Text, Textarea } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, api, call } from "../api/client";
import { type Payout, STATUS_LABELS } from "../lib/payouts";
import { useSession } from "../lib/session";
import { Money } from "./Money";

export type Outcome = "approve" | "reject";

export interface DecisionResult {
  readonly payoutId: string;
  readonly ok: boolean;
  readonly text: string;
}

export function DecisionDialog(props: { outcome: Outcome; payouts: readonly Payout[]; onClose: () => void }) {
  const { withStepUp, environment } = useSession();
  const queryClient = useQueryClient();
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<DecisionResult[] | null>(null);
  const verb = props.outcome === "approve" ? "Approve" : "Reject";
  const count = props.payouts.length;

  const run = async () => {
    setBusy(true);
    const done: DecisionResult[] = [];
    for (const payout of props.payouts) {
      const params = { path: { payoutId: payout.payout_id } };
      const body = note.trim() === "" ? {} : { reason: note.trim() };
      try {
        const result = await withStepUp(() =>
          call(
            props.outcome === "approve"
              ? api.POST("/v1/payouts/{payoutId}/approve", { params, body })
              : api.POST("/v1/payouts/{payoutId}/reject", { params, body }),
          ),
        );
        done.push({ payoutId: payout.payout_id, ok: true, text: STATUS_LABELS[result.payout.status] });
      } catch (error) {
        done.push({
          payoutId: payout.payout_id,
          ok: false,
          text: error instanceof ApiError ? `${error.message} (${error.code})` : "Failed",
        });
        // A refused confirmation stops the batch: the rest would be refused the same way.
        if (error instanceof ApiError && error.code === "STEP_UP_REQUIRED") break;
      }
      setResults([...done]);
    }
    setResults(done);
    setBusy(false);
    await queryClient.invalidateQueries({ queryKey: [environment, "payouts"] });
  };

  return (
    <Modal opened onClose={props.onClose} title={`${verb} ${count} payout${count === 1 ? "" : "s"}`} size="lg" centered>
      {results === null || busy ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
        >
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
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
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
                      {result?.text ?? "Not sent"}
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
