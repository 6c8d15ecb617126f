// Uploading a statement file the bank sent by another way (e-mail, its portal): camt.053, camt.052 or BAI2, read
// by the service as it reads the inbound folder. The same file again adds nothing, and the dialog says so.
import { FileInput, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useUploadStatement } from "../../hooks/api/reconciliation/mutations";
import type { BankStatement } from "../../hooks/api/reconciliation/types";
import { FormDialog } from "../FormDialog";
import { linesByStatusWords } from "./words";

/** Statement files are small; a bigger one is surely not a statement (the API refuses it too). */
const MAX_BYTES = 20 * 1024 * 1024;

export function UploadStatementDialog(props: { onClose: () => void }) {
  const upload = useUploadStatement();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [done, setDone] = useState<{ statement: BankStatement; duplicate: boolean } | null>(null);
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (done !== null) return props.onClose();
    if (file === null) return setFileError("Choose the statement file");
    if (file.size > MAX_BYTES) return setFileError("This file is too big to be a statement (at most 20 MB)");
    const text = new TextDecoder("utf-8").decode(await file.arrayBuffer());
    upload.mutate(text, { onSuccess: setDone });
  };
  return (
    <FormDialog
      title="Upload a bank statement"
      onClose={props.onClose}
      onSubmit={submit}
      submitLabel={done === null ? "Upload" : "Done"}
      busy={upload.isPending}
      error={upload.error}
      errorTitle="The statement was not read"
    >
      <Text size="sm">
        An end-of-day statement (camt.053), an intraday report (camt.052) or a BAI2 file, as your bank sends it. It belongs to the
        funding account whose account number it names; its lines are matched at once.
      </Text>
      <FileInput
        label="Statement file"
        placeholder="Choose a file"
        // Mantine's placeholder grey is below AA contrast on white (as on Bulk upload).
        styles={{ placeholder: { color: "var(--mantine-color-gray-7)" } }}
        clearButtonProps={{ "aria-label": "Remove the file" }}
        accept=".xml,.txt,.bai,.bai2,.053,.052,application/xml,text/xml,text/plain"
        value={file}
        onChange={(picked) => {
          setFile(picked);
          setFileError(null);
          setDone(null);
          upload.reset();
        }}
        error={fileError}
        clearable
        required
      />
      {done !== null && (
        <Stack gap={2} role="status" data-testid="upload-result">
          <Text size="sm" fw={600}>
            {done.duplicate ? "This statement was received before: nothing was added." : "Statement read."}
          </Text>
          <Text size="sm">
            {done.statement.line_count} line{done.statement.line_count === 1 ? "" : "s"}:{" "}
            {linesByStatusWords(done.statement.lines_by_status)}.
          </Text>
        </Stack>
      )}
    </FormDialog>
  );
}
