// Bulk upload: a CSV chosen here is parsed and checked in the browser (lib/csv.ts) and shown as a preview with
// every invalid cell marked before anything is sent; the upload id is the client package's computeUploadId of the
// file's bytes (the CLI's too), so the same file sent twice, here or by the CLI, replays its rows instead of paying twice. Then the per-row results (downloadable as
// CSV), and the uploads made so far as batches, whose pending payouts are approved or rejected together.
import { Alert, FileInput, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ErrorAlert } from "../components/ErrorAlert";
import { MutationError } from "../components/MutationError";
import type { Chosen } from "../components/uploads/chosen";
import { UploadBatches } from "../components/uploads/UploadBatches";
import { UploadPreview } from "../components/uploads/UploadPreview";
import { UploadResults } from "../components/uploads/UploadResults";
import { useBulkUpload } from "../hooks/api/uploads/mutations";
import { computeUploadId, OPTIONAL_COLUMNS, parseBulkCsv, REQUIRED_COLUMNS, rowsToSend } from "../lib/csv";
import { useSignedIn } from "../lib/session";

export function UploadsPage() {
  const session = useSignedIn();
  const upload = useBulkUpload();
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [readError, setReadError] = useState<unknown>(null);
  // The answer to the chosen file once sent; choosing another file (or none) clears it with the refusal.
  const result = upload.data ?? null;
  const admin = session.membership.role === "business_admin";

  const choose = async (picked: File | null) => {
    setFile(picked);
    setChosen(null);
    upload.reset();
    setReadError(null);
    if (picked === null) return;
    try {
      const bytes = new Uint8Array(await picked.arrayBuffer());
      const text = new TextDecoder("utf-8").decode(bytes);
      setChosen({ name: picked.name, uploadId: await computeUploadId(bytes), file: parseBulkCsv(text) });
    } catch (error) {
      setReadError(error instanceof Error ? error : new Error("The file could not be read."));
    }
  };

  const rows = chosen === null ? null : rowsToSend(chosen.file);
  const invalidRows = chosen?.file.rows.filter((r) => r.row === null).length ?? 0;

  const submit = () => {
    if (chosen === null || rows === null) return;
    upload.mutate({ uploadId: chosen.uploadId, rows });
  };

  return (
    <Stack>
      <Title order={1}>Bulk upload</Title>
      <Text size="sm">
        A CSV file with a header line and one payout per line (at most 1000). Required columns:{" "}
        <code>{REQUIRED_COLUMNS.join(", ")}</code> and <code>amount</code> (in the currency's units: 12.50 EUR, 1500 JPY) or{" "}
        <code>amount_minor</code> (in minor units: 1250); optional: <code>{OPTIONAL_COLUMNS.join(", ")}</code>. The CLI's{" "}
        <code>payouts payouts bulk</code> takes the same file. A Beneficiary's id is on its page, and in the CSV that
        Beneficiaries → Export CSV downloads. Uploading the same file again, here or with the CLI, creates nothing new: its rows
        are replayed.
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
        <UploadPreview
          chosen={chosen}
          invalidRows={invalidRows}
          canSend={rows !== null && admin}
          busy={upload.isPending}
          onSend={submit}
        />
      )}
      <MutationError mutation={upload} title="Could not send the upload" />
      {chosen !== null && result !== null && (
        <UploadResults
          chosen={chosen}
          result={result}
          onAnother={() => {
            setFile(null);
            setChosen(null);
            upload.reset();
          }}
        />
      )}
      <UploadBatches />
    </Stack>
  );
}
