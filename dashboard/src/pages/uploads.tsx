// Bulk upload: a CSV chosen here is parsed and checked in the browser (lib/csv.ts) and shown as a preview with
// every invalid cell marked before anything is sent; the upload id is the SHA-256 of the file's bytes, so the
// same file sent twice replays its rows instead of paying twice. Then the per-row results (downloadable as
// CSV), and the uploads made so far as batches, whose pending payouts are approved or rejected together.
import { Alert, Anchor, Badge, Button, FileInput, Group, List, Stack, Text, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { api, call, type Schemas } from "../api/client";
import { type DataColumn, DataList } from "../components/DataList";
import { DecisionDialog, type Outcome } from "../components/DecisionDialog";
import { ErrorAlert } from "../components/ErrorAlert";
import { Money } from "../components/Money";
import { StatusBadge } from "../components/StatusBadge";
import { Time } from "../components/Time";
import {
  type Column,
  OPTIONAL_COLUMNS,
  type ParsedFile,
  type PreviewRow,
  parseBulkCsv,
  REQUIRED_COLUMNS,
  resultsToCsv,
  rowsToSend,
  sha256Hex,
} from "../lib/csv";
import { downloadText } from "../lib/download";
import { canDecide, type Payout, type PayoutStatus, STATUS_LABELS } from "../lib/payouts";
import { useSignedIn } from "../lib/session";

type BulkResult = Schemas["BulkPayoutResult"];
type BulkRowResult = BulkResult["results"][number];

const RESULT_COLUMNS: readonly DataColumn<BulkRowResult>[] = [
  // The file's line: the header is line 1.
  { header: "Line", cell: (row) => row.index + 2 },
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

interface Chosen {
  readonly name: string;
  readonly uploadId: string;
  readonly file: ParsedFile;
}

/** A batch's two buttons: its pending payouts approved or rejected together. */
const DECISIONS: readonly { outcome: Outcome; verb: string; color: string }[] = [
  { outcome: "approve", verb: "Approve", color: "teal.9" },
  { outcome: "reject", verb: "Reject", color: "red" },
];

/** Up to this many recent payouts are read to group the uploads (5 pages of 200). */
const SCAN_PAGES = 5;

export function UploadsPage() {
  const session = useSignedIn();
  const { environment } = session;
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [readError, setReadError] = useState<unknown>(null);
  const [sendError, setSendError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<BulkResult | null>(null);
  const admin = session.membership.role === "business_admin";

  const choose = async (picked: File | null) => {
    setFile(picked);
    setChosen(null);
    setResult(null);
    setSendError(null);
    setReadError(null);
    if (picked === null) return;
    try {
      const bytes = new Uint8Array(await picked.arrayBuffer());
      const text = new TextDecoder("utf-8").decode(bytes);
      setChosen({ name: picked.name, uploadId: await sha256Hex(bytes), file: parseBulkCsv(text) });
    } catch (error) {
      setReadError(error instanceof Error ? error : new Error("The file could not be read."));
    }
  };

  const rows = chosen === null ? null : rowsToSend(chosen.file);
  const invalidRows = chosen?.file.rows.filter((r) => r.row === null).length ?? 0;

  const submit = async () => {
    if (chosen === null || rows === null) return;
    setBusy(true);
    setSendError(null);
    try {
      setResult(await call(api.POST("/v1/payouts/bulk", { body: { uploadId: chosen.uploadId, rows } })));
      await queryClient.invalidateQueries({ queryKey: [environment, "payouts"] });
    } catch (error) {
      setSendError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Title order={1}>Bulk upload</Title>
      <Text size="sm">
        A CSV file with a header line and one payout per line (at most 1000). Required columns:{" "}
        <code>{REQUIRED_COLUMNS.join(", ")}</code>; optional: <code>{OPTIONAL_COLUMNS.join(", ")}</code>. The amount is in the
        currency's units (12.50 EUR, 1500 JPY). A Beneficiary's id is on its page, and in the CSV that Beneficiaries → Export CSV
        downloads. Uploading the same file again creates nothing new: its rows are replayed.
      </Text>
      {!admin && <Alert color="blue">Your role can see uploads but not send one.</Alert>}
      <FileInput
        label="CSV file"
        placeholder="Choose a file"
        // Mantine's placeholder grey is below AA contrast on white.
        styles={{ placeholder: { color: "var(--mantine-color-gray-7)" } }}
        accept=".csv,text/csv"
        value={file}
        onChange={(picked) => void choose(picked)}
        clearable
        clearButtonProps={{ "aria-label": "Remove the file" }}
        maw={420}
        disabled={!admin}
      />
      <ErrorAlert error={readError} title="Could not read the file" />
      {chosen !== null && result === null && (
        <Preview
          chosen={chosen}
          invalidRows={invalidRows}
          canSend={rows !== null && admin}
          busy={busy}
          onSend={() => void submit()}
        />
      )}
      <ErrorAlert error={sendError} title="Could not send the upload" />
      {chosen !== null && result !== null && (
        <Results
          chosen={chosen}
          result={result}
          onAnother={() => {
            setFile(null);
            setChosen(null);
            setResult(null);
          }}
        />
      )}
      <Batches />
    </Stack>
  );
}

function Preview(props: { chosen: Chosen; invalidRows: number; canSend: boolean; busy: boolean; onSend: () => void }) {
  const { chosen, invalidRows } = props;
  const { file } = chosen;
  const columns = file.columns;
  return (
    <Stack data-testid="upload-preview">
      <Title order={2}>Preview of {chosen.name}</Title>
      <Text size="xs" c="dimmed" style={{ wordBreak: "break-all" }}>
        Upload id (SHA-256 of the file): {chosen.uploadId}
      </Text>
      {file.fileErrors.length > 0 && (
        <Alert color="red" title="The file cannot be sent" role="alert">
          <List size="sm">
            {file.fileErrors.map((error) => (
              <List.Item key={error}>{error}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Text size="sm" role="status" {...(invalidRows > 0 ? { c: "red.9" } : {})}>
        {file.rows.length} row{file.rows.length === 1 ? "" : "s"}
        {invalidRows > 0
          ? `, ${invalidRows} with errors: fix the file and choose it again.`
          : file.fileErrors.length === 0
            ? ", all valid."
            : "."}
      </Text>
      {file.rows.length > 0 && (
        <DataList
          rows={file.rows}
          rowKey={(row) => String(row.index)}
          columns={previewColumns(columns)}
          empty=""
          rowTestId="preview-row"
          rowProps={(row) => ({ "data-invalid": row.row === null })}
          minWidth={640}
        />
      )}
      <Group>
        <Button onClick={props.onSend} disabled={!props.canSend} loading={props.busy}>
          Send {file.rows.length} payout{file.rows.length === 1 ? "" : "s"}
        </Button>
      </Group>
    </Stack>
  );
}

/** The file's own columns after its line number; a cell the browser's check refused is marked and explained. */
function previewColumns(columns: readonly string[]): DataColumn<PreviewRow>[] {
  return [
    { header: "Line", cell: (row) => row.line },
    ...columns.map(
      (column): DataColumn<PreviewRow> => ({
        header: column,
        cellProps: (row) => ({
          ...(row.errors[column as Column] === undefined ? {} : { bg: "red.0" }),
          "data-testid": `cell-${column}`,
        }),
        cell: (row) => {
          const error = row.errors[column as Column];
          return (
            <>
              <Text size="sm" style={{ wordBreak: "break-all" }}>
                {row.cells[column] ?? ""}
              </Text>
              {error !== undefined && (
                <Text size="xs" c="red.9" fw={700} data-testid="cell-error">
                  {error}
                </Text>
              )}
            </>
          );
        },
      }),
    ),
  ];
}

function Results(props: { chosen: Chosen; result: BulkResult; onAnother: () => void }) {
  const { chosen, result } = props;
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
        columns={RESULT_COLUMNS}
        empty="No rows."
        rowTestId="result-row"
        minWidth={560}
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

function Batches() {
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
