// Importing Beneficiaries from a CSV on the list page: the file is checked in the browser first (the rules the
// import API states, lib/beneficiary-csv.ts), every row with its problems shown before anything is sent; only a
// clean file can be sent, and the API's answer is shown per row (created, already exists, duplicate, failed with
// its code and message), and can be downloaded as CSV with the bulk upload's writer (lib/csv.ts, lib/download.ts).
import { Alert, Button, FileInput, Modal, Stack, Table, Text } from "@mantine/core";
import { useState } from "react";
import { useImportBeneficiaries } from "../../hooks/api/beneficiaries/mutations";
import type { ImportRows } from "../../hooks/api/beneficiaries/types";
import { IMPORT_COLUMNS, type ImportFile, importResultsToCsv, parseImportCsv } from "../../lib/beneficiary-csv";
import { downloadText } from "../../lib/download";
import { MutationError } from "../MutationError";

export function ImportBeneficiariesButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Import CSV
      </Button>
      {open && <ImportDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function ImportDialog({ onClose }: { onClose: () => void }) {
  const importRows = useImportBeneficiaries();
  const [file, setFile] = useState<ImportFile | null>(null);
  const [fileName, setFileName] = useState("beneficiaries");
  // The answer to the file shown; a new file clears it (and the refusal) until it is sent.
  const result = importRows.data ?? null;
  const clean = file !== null && file.fileErrors.length === 0 && file.rows.every((r) => r.problems.length === 0);

  const choose = async (chosen: File | null) => {
    importRows.reset();
    if (chosen !== null) setFileName(chosen.name.replace(/\.csv$/i, ""));
    setFile(chosen === null ? null : parseImportCsv(await chosen.text()));
  };
  const send = () => {
    if (file === null) return;
    importRows.mutate(file.rows.map((r) => r.body) as ImportRows);
  };

  return (
    <Modal opened onClose={onClose} title="Import Beneficiaries" centered size="xl">
      <Stack>
        <Text size="sm">
          One Beneficiary with its bank account per row. Columns: {IMPORT_COLUMNS.join(", ")}. Required: email, the bank account
          holder, country, currency and IBAN or account number, and first and last name or a business name.
        </Text>
        <FileInput label="CSV file" accept=".csv,text/csv" onChange={(f) => void choose(f)} />
        {file !== null && file.fileErrors.length > 0 && (
          <Alert color="red" title="The file cannot be imported" role="alert">
            {file.fileErrors.map((e) => (
              <Text size="sm" key={e}>
                {e}
              </Text>
            ))}
          </Alert>
        )}
        {file !== null && result === null && file.rows.length > 0 && (
          <Table.ScrollContainer minWidth={480}>
            <Table data-testid="import-preview">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>E-mail</Table.Th>
                  <Table.Th>Problems</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {file.rows.map((r) => (
                  <Table.Tr key={r.index} data-testid="import-preview-row">
                    <Table.Td>{r.index + 1}</Table.Td>
                    <Table.Td>{String(r.body.email ?? "")}</Table.Td>
                    <Table.Td>
                      {r.problems.length === 0 ? (
                        "OK"
                      ) : (
                        <Text size="sm" c="red.9">
                          {r.problems.join("; ")}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <MutationError mutation={importRows} title="Could not import" />
        {result !== null && (
          <>
            <Text size="sm" role="status" data-testid="import-summary">
              {result.created_count} created, {result.already_exists_count} already existed, {result.duplicate_count} duplicate,{" "}
              {result.failed_count} failed.
            </Text>
            {file !== null && (
              <Button
                variant="default"
                style={{ alignSelf: "flex-start" }}
                onClick={() => downloadText(`${fileName}-results.csv`, importResultsToCsv(file, result.results))}
              >
                Download results (CSV)
              </Button>
            )}
            <Table.ScrollContainer minWidth={480}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Row</Table.Th>
                    <Table.Th>Result</Table.Th>
                    <Table.Th>Detail</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.results.map((r) => (
                    <Table.Tr key={r.index} data-testid="import-result-row">
                      <Table.Td>{r.index + 1}</Table.Td>
                      <Table.Td>{r.status.replaceAll("_", " ")}</Table.Td>
                      <Table.Td>
                        {r.error === undefined
                          ? (r.beneficiary_id ?? "")
                          : `${r.error.field === "" ? "" : `${r.error.field}: `}${r.error.message} (${r.error.code})`}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
        {result === null && (
          <Button onClick={send} disabled={!clean} loading={importRows.isPending} style={{ alignSelf: "flex-start" }}>
            Import {file?.rows.length ?? 0} rows
          </Button>
        )}
      </Stack>
    </Modal>
  );
}
