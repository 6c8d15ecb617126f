// A chosen CSV before anything is sent: its upload id, the file's own problems, and every row (with its payee's
// name) with each invalid cell marked and explained (lib/csv.ts checked them in the browser).
import { Alert, Button, Group, List, Stack, Text, Title } from "@mantine/core";
import { useReadyBeneficiaries } from "../../hooks/api/beneficiaries/queries";
import type { Column, PreviewRow } from "../../lib/csv";
import { type DataColumn, DataList } from "../DataList";
import type { Chosen } from "./chosen";

/**
 * The payee's name of each row's `beneficiary_id` among the ready Beneficiaries (the first 200, as the new-payout
 * form offers): a row whose id is not among them says so, before anything is sent.
 */
function payeeColumn(names: ReadonlyMap<string, string> | undefined): DataColumn<PreviewRow> {
  return {
    header: "Payee",
    cellProps: () => ({ "data-testid": "cell-payee" }),
    cell: (row) => {
      const id = (row.cells.beneficiary_id ?? "").trim().toLowerCase();
      if (names === undefined || id === "") return "";
      const name = names.get(id);
      return name === undefined ? (
        <Text size="sm" c="dimmed">
          Not a ready Beneficiary
        </Text>
      ) : (
        <Text size="sm" fw={600}>
          {name}
        </Text>
      );
    },
  };
}

export function UploadPreview(props: {
  chosen: Chosen;
  invalidRows: number;
  canSend: boolean;
  busy: boolean;
  onSend: () => void;
}) {
  const { chosen, invalidRows } = props;
  const { file } = chosen;
  const columns = file.columns;
  const ready = useReadyBeneficiaries();
  const names = ready.data === undefined ? undefined : new Map(ready.data.beneficiaries.map((b) => [b.id, b.display_name]));
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
          columns={previewColumns(columns, payeeColumn(names))}
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
function previewColumns(columns: readonly string[], payee: DataColumn<PreviewRow>): DataColumn<PreviewRow>[] {
  return [
    { header: "Line", cell: (row) => row.line },
    payee,
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
