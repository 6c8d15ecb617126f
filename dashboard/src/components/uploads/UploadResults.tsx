// What the API answered for an upload, row by row (whom it pays, created, replayed, failed with its code), a notice when the
// file was uploaded before, and the results as a CSV to download.
import { Alert, Anchor, Button, Group, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { useUploadPayees } from "../../hooks/api/uploads/queries";
import type { BulkResult, BulkRowResult } from "../../hooks/api/uploads/types";
import { resultsToCsv } from "../../lib/csv";
import { downloadText } from "../../lib/download";
import { type PayoutStatus, STATUS_LABELS } from "../../lib/payouts";
import { type DataColumn, DataList } from "../DataList";
import type { Chosen } from "./chosen";

/** The results' columns; `payees` names the payee of each payout made (by payout id) once they are read. */
const resultColumns = (payees: ReadonlyMap<string, string> | undefined): DataColumn<BulkRowResult>[] => [
  // The file's line: the header is line 1.
  { header: "Line", cell: (row) => row.index + 2 },
  {
    header: "Payee",
    cell: (row) => (row.payout_id === null ? "—" : (payees?.get(row.payout_id) ?? "…")),
    cellProps: () => ({ "data-testid": "result-payee" }),
  },
  {
    header: "Result",
    cell: (row) => (
      <Text size="sm" c={row.status === "failed" ? "red.9" : "teal.9"} fw={700}>
        {row.status === "created" ? "Created" : row.status === "replayed" ? "Replayed" : "Failed"}
      </Text>
    ),
  },
  {
    header: "Payout",
    cell: (row) =>
      row.payout_id === null ? (
        "—"
      ) : (
        <Anchor component={Link} to={`/payouts/${row.payout_id}`}>
          {row.payout_status === null ? row.payout_id.slice(0, 8) : STATUS_LABELS[row.payout_status as PayoutStatus]}
        </Anchor>
      ),
  },
  {
    header: "Error",
    cell: (row) =>
      row.error === null ? (
        ""
      ) : (
        <Text size="sm" c="red.9">
          {row.error.message} ({row.error.code})
        </Text>
      ),
  },
];

export function UploadResults(props: { chosen: Chosen; result: BulkResult; onAnother: () => void }) {
  const { chosen, result } = props;
  const payees = useUploadPayees(result.created + result.replayed > 0 ? result.upload_id : null);
  const replay = result.replayed > 0 && result.created === 0;
  return (
    <Stack data-testid="upload-results">
      <Title order={2}>Results</Title>
      {replay ? (
        <Alert color="blue" title="This file was uploaded before" data-testid="replay-notice">
          Nothing new was created: {result.replayed} row{result.replayed === 1 ? " was" : "s were"} replayed and point to the
          payouts of the first upload.
        </Alert>
      ) : result.replayed > 0 ? (
        <Alert color="blue" title="Part of this file was uploaded before" data-testid="replay-notice">
          {result.replayed} row{result.replayed === 1 ? " was" : "s were"} replayed.
        </Alert>
      ) : null}
      <Text role="status" data-testid="results-summary">
        {result.created} created · {result.replayed} replayed · {result.failed} failed
      </Text>
      <DataList
        rows={result.results}
        rowKey={(row) => String(row.index)}
        columns={resultColumns(payees.data)}
        empty="No rows."
        rowTestId="result-row"
        minWidth={640}
      />
      <Group>
        <Button
          variant="default"
          onClick={() =>
            downloadText(`${chosen.name.replace(/\.csv$/i, "")}-results.csv`, resultsToCsv(chosen.file, result.results))
          }
        >
          Download results (CSV)
        </Button>
        <Button variant="subtle" onClick={props.onAnother}>
          Upload another file
        </Button>
      </Group>
    </Stack>
  );
}
